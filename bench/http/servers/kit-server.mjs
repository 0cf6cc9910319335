#!/usr/bin/env node
// The echo tool as a kit server over Streamable HTTP (serveHttp), stateless with --stateless, else with sessions.
// Prints the endpoint URL as its one line on stdout once it listens.
import { createServer, defineTool, serveHttp } from '@mcpkit/server-kit';
import { z } from 'zod';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  input: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true },
  handler: ({ text }) => text,
});

const server = createServer({ name: 'bench-kit', version: '1.0.0', tools: [echo], logLevel: 'error' });
const listening = await serveHttp(server, {
  stateless: process.argv.includes('--stateless'),
  // Room for every connection of the heaviest row.
  maxSessions: 1000,
  handleSignals: true,
});
process.stdout.write(`${listening.url}\n`);
