#!/usr/bin/env node
// The same trivial tool on a raw SDK McpServer over stdio: the baseline the kit is measured against.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echoes its text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
