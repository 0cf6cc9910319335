import { findConfigFile, loadConfigFile } from '@mcpkit/agent-host';
import { audit, type Middleware, rateLimit } from '@mcpkit/server-kit';
import { packageVersion, runServerCommand } from '@mcpkit/server-kit/cli';
import { createGateway } from './gateway.js';

const version = packageVersion(new URL('../package.json', import.meta.url));

// The only file that reads the command line and touches the process: parse, start the backends, serve.
await runServerCommand(
  {
    name: 'mcpkit-gateway',
    version,
    description:
      'Serves every server of an MCP host config (Claude Desktop, Cursor or VS Code format) as one MCP server.',
    positionals: '[CONFIG]',
    flags: {
      audit: { type: 'boolean', description: 'Write one JSON audit line per call to stderr (secrets redacted)' },
      'rate-limit': {
        type: 'integer',
        description: 'Allow each caller this many calls a second per tool (a token bucket)',
        valueName: 'N',
      },
    },
    environment: { MCPKIT_TOKEN: 'Bearer token required over HTTP' },
  },
  async ({ values, positionals }) => {
    const config = await loadConfigFile(findConfigFile(positionals[0]));
    const middleware: Middleware[] = [];
    if (values.audit) middleware.push(audit());
    const limit = values['rate-limit'];
    if (limit !== undefined) middleware.push(rateLimit({ limit }));
    const gateway = await createGateway({ config, name: 'mcpkit-gateway', version, middleware });
    for (const failure of gateway.host.failures) {
      process.stderr.write(`mcpkit-gateway: server "${failure.server}" did not start: ${failure.message}\n`);
    }
    return gateway.server;
  },
);
