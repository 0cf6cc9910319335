import { readFileSync } from 'node:fs';
import { runServerCommand } from '@mcpkit/server-kit';
import { createFilesystemServer } from './server.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

await runServerCommand(
  {
    name: 'mcpkit-filesystem',
    version,
    description: 'An MCP server for the files inside the given directories (a drop-in for the official one).',
    positionals: 'DIR [DIR...]',
    flags: {
      'read-only': { type: 'boolean', description: 'Offer no tool that writes, moves or creates' },
      'refuse-hard-links': {
        type: 'boolean',
        description: 'Refuse to read regular files that have more than one hard link',
      },
    },
  },
  (parsed) =>
    createFilesystemServer({
      directories: parsed.positionals,
      readOnly: parsed.values['read-only'] === true,
      hardLinks: parsed.values['refuse-hard-links'] ? 'refuse' : 'allow',
      logLevel: parsed.logLevel,
      version,
    }),
);
