#!/usr/bin/env node
// The tool server of the host benchmark: `instant` answers at once, `sleep` after the given milliseconds. It serves
// both protocol eras; with --legacy it speaks only 2025-11-25 (the `server/discover` probe is "method not found"), as
// a server on the 1.x SDK does, so the host falls back to the handshake.
import { createServer, defineTool } from '@mcpkit/server-kit';
import { runServerCommand } from '@mcpkit/server-kit/cli';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = createServer({
  name: 'bench',
  version: '1.0.0',
  logLevel: 'error',
  tools: [
    defineTool({
      name: 'instant',
      description: 'Answers at once.',
      input: z.object({ step: z.number().int() }),
      handler: ({ step }) => `step ${step} done`,
    }),
    defineTool({
      name: 'sleep',
      description: 'Answers after ms milliseconds.',
      input: z.object({ ms: z.number().int().nonnegative() }),
      handler: ({ ms }, { signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(`slept ${ms} ms`), ms);
          signal.addEventListener('abort', () => clearTimeout(timer));
        }),
    }),
  ],
});
if (process.argv.includes('--legacy')) {
  await server.connect(new StdioServerTransport());
} else {
  await runServerCommand(
    { name: 'bench-tools', version: '1.0.0', description: 'Benchmark tools.', flags: {} },
    () => server,
  );
}
