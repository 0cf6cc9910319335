#!/usr/bin/env node
// The trivial tool as a kit server over stdio.
import { createServer, defineTool, serveStdio } from '@mcpkit/server-kit';
import { z } from 'zod';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  input: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true },
  handler: ({ text }) => text,
});

await serveStdio(createServer({ name: 'bench-kit', version: '1.0.0', tools: [echo] }));
