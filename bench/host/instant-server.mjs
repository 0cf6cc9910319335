#!/usr/bin/env node
// The tool server of the host benchmark: `instant` answers at once, `sleep` after the given milliseconds.
import { createServer, defineTool } from '@mcpkit/server-kit';
import { runServerCommand } from '@mcpkit/server-kit/cli';
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
await runServerCommand(
  { name: 'bench-tools', version: '1.0.0', description: 'Benchmark tools.', flags: {} },
  () => server,
);
