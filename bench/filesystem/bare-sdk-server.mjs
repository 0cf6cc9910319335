#!/usr/bin/env node
// The floor of the cold-start row: a bare SDK 2.x McpServer over stdio that lists the very tools mcpkit-filesystem
// lists (names, titles, descriptions, input and output schemas, annotations, read from the JSON file given as the
// argument, which small-ops.mjs and bench/kit/cold-start.mjs write from mcpkit's own tools/list) and does nothing
// else. Schemas become zod objects at start, as a hand-written SDK server's would be.
//
//   node bench/filesystem/bare-sdk-server.mjs TOOLS.json
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const tools = JSON.parse(readFileSync(process.argv[2], 'utf8'));
serveStdio(() => {
  const server = new McpServer({ name: 'bench-bare-filesystem', version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: z.fromJSONSchema(tool.inputSchema),
        ...(tool.outputSchema ? { outputSchema: z.fromJSONSchema(tool.outputSchema) } : {}),
        annotations: tool.annotations,
      },
      () => ({ content: [{ type: 'text', text: 'not implemented' }] }),
    );
  }
  return server;
});
