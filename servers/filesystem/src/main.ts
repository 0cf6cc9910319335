import { readFileSync } from 'node:fs';
import { runServerCommand, UsageError } from '@mcpkit/server-kit';
import type { FilesystemLimits } from './dependencies.js';
import { createFilesystemServer } from './server.js';

/** Flags that set a limit, and the limit each sets. */
const limitFlags = {
  'read-budget': 'readBudget',
  'page-size': 'pageSize',
  'tree-entries': 'treeEntries',
  'search-results': 'searchResults',
  'grep-matches': 'grepMatches',
  'media-bytes': 'mediaBytes',
} as const satisfies Record<string, keyof FilesystemLimits>;

function readLimits(values: Record<string, unknown>): Partial<FilesystemLimits> {
  const limits: Partial<FilesystemLimits> = {};
  for (const [flag, limit] of Object.entries(limitFlags)) {
    const value = values[flag];
    if (value === undefined) continue;
    const number = Number(value);
    if (!Number.isInteger(number) || number <= 0) {
      throw new UsageError(`--${flag} takes a positive integer; got ${JSON.stringify(value)}.`);
    }
    limits[limit] = number;
  }
  return limits;
}

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
      'read-budget': {
        type: 'string',
        valueName: 'CHARS',
        description: 'Characters of text one read returns (100000)',
      },
      'page-size': { type: 'string', valueName: 'N', description: 'Entries of one list_directory page (1000)' },
      'tree-entries': { type: 'string', valueName: 'N', description: 'Entries of one directory_tree page (2000)' },
      'search-results': { type: 'string', valueName: 'N', description: 'Paths of one search_files page (1000)' },
      'grep-matches': { type: 'string', valueName: 'N', description: 'Matching lines of one grep page (300)' },
      'media-bytes': { type: 'string', valueName: 'BYTES', description: 'Largest media file returned (10485760)' },
    },
  },
  (parsed) =>
    createFilesystemServer({
      directories: parsed.positionals,
      readOnly: parsed.values['read-only'] === true,
      hardLinks: parsed.values['refuse-hard-links'] ? 'refuse' : 'allow',
      limits: readLimits(parsed.values),
      logLevel: parsed.logLevel,
      version,
    }),
);
