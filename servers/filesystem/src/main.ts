import { packageVersion, runServerCommand } from '@mcpkit/server-kit/cli';
import type { FilesystemLimits } from './dependencies.js';
import { createFilesystemServer } from './server.js';

const version = packageVersion(new URL('../package.json', import.meta.url));

/** The limits set on the command line; the others keep their defaults. */
function givenLimits(limits: { [Limit in keyof FilesystemLimits]?: number | undefined }): Partial<FilesystemLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

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
        type: 'integer',
        valueName: 'CHARS',
        description: 'Characters of text one read returns (100000)',
      },
      'page-size': { type: 'integer', valueName: 'N', description: 'Entries of one list_directory page (1000)' },
      'tree-entries': { type: 'integer', valueName: 'N', description: 'Entries of one directory_tree page (2000)' },
      'search-results': { type: 'integer', valueName: 'N', description: 'Paths of one search_files page (1000)' },
      'grep-matches': { type: 'integer', valueName: 'N', description: 'Matching lines of one grep page (300)' },
      'media-bytes': { type: 'integer', valueName: 'BYTES', description: 'Largest media file returned (10485760)' },
    },
  },
  ({ values, positionals, logLevel }) => {
    const limits = givenLimits({
      readBudget: values['read-budget'],
      pageSize: values['page-size'],
      treeEntries: values['tree-entries'],
      searchResults: values['search-results'],
      grepMatches: values['grep-matches'],
      mediaBytes: values['media-bytes'],
    });
    return createFilesystemServer({
      directories: positionals,
      readOnly: values['read-only'] === true,
      hardLinks: values['refuse-hard-links'] ? 'refuse' : 'allow',
      limits,
      logLevel,
      version,
    });
  },
);
