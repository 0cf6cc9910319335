// #region main
import { runServerCommand } from '@mcpkit/server-kit/cli';
import { createHelloServer } from './server.js';

// The only file that reads the command line and touches the process: parse, build, serve (stdio unless --http).
await runServerCommand(
  {
    name: 'mcpkit-hello',
    version: '0.1.0',
    description: 'A small notes server written with server-kit.',
    flags: {
      greeting: { type: 'string', description: 'What greet says before the name', valueName: 'WORD' },
    },
  },
  ({ values }) => createHelloServer({ greeting: values.greeting ?? 'Hello' }),
);
// #endregion main
