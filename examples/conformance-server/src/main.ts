import { runServerCommand } from '@mcpkit/server-kit/cli';
import { conformanceServerVersion, createConformanceServer } from './server.js';

await runServerCommand(
  {
    name: 'mcpkit-conformance-server',
    version: conformanceServerVersion,
    description: 'Serves the fixtures of the official MCP conformance suite (use --http 127.0.0.1:PORT).',
    flags: {},
  },
  ({ logLevel }) => createConformanceServer({ logLevel }),
);
