import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '@mcpkit/server-kit/cli';

/**
 * The default index file: one per set of directories, so `index DIR` and `DIR` share it. node:crypto loads only for
 * it (a server given --index-file does not need it before answering).
 */
async function defaultIndexFile(directories: string[], environment: NodeJS.ProcessEnv): Promise<string> {
  const { createHash } = await import('node:crypto');
  const cache =
    environment.MCPKIT_SEARCH_CACHE ?? join(environment.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mcpkit-search');
  const key = createHash('sha256')
    .update(
      directories
        .map((directory) => resolve(directory))
        .sort()
        .join('\0'),
    )
    .digest('hex')
    .slice(0, 16);
  return join(cache, `index-${key}.sqlite`);
}

/** The flags that choose where the index lives, shared by serving and `index`. */
export const indexFlags = {
  'index-file': {
    type: 'string',
    description: 'The SQLite index file (default: a file per directory set in the cache folder)',
    valueName: 'FILE',
  },
  'index-url': {
    type: 'string',
    description: 'A PostgreSQL URL: use an index shared by many servers instead of a file (or MCPKIT_SEARCH_INDEX_URL)',
    valueName: 'URL',
  },
  source: {
    type: 'string',
    multiple: true,
    description: 'With --index-url, the name a DIR is stored under (one per DIR, in order; default: its folder name)',
    valueName: 'NAME',
  },
  'max-file-size': {
    type: 'integer',
    description: 'Skip files larger than this many bytes (1048576)',
    valueName: 'BYTES',
  },
} as const;

/** Where the index lives, from the flags and the environment; a usage error for contradicting choices. */
export async function indexLocation(
  values: { 'index-file'?: string; 'index-url'?: string; source?: string[] },
  directories: string[],
  environment: NodeJS.ProcessEnv,
): Promise<{ indexFile: string } | { indexUrl: string; sourceNames?: string[] }> {
  const url = values['index-url'] ?? environment.MCPKIT_SEARCH_INDEX_URL;
  if (url !== undefined && values['index-file'] !== undefined) {
    throw new UsageError('Pass either --index-file or --index-url, not both.');
  }
  if (url === undefined) {
    if (values.source) throw new UsageError('--source names folders of a shared index; it needs --index-url.');
    if (directories.length === 0) throw new UsageError('mcpkit-search needs DIR [DIR...] (or --index-url URL).');
    return { indexFile: values['index-file'] ?? (await defaultIndexFile(directories, environment)) };
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new UsageError(`The index URL must start with postgres:// or postgresql:// (got ${JSON.stringify(url)}).`);
  }
  if (values.source && values.source.length !== directories.length) {
    throw new UsageError(`Give one --source per DIR (${directories.length} DIR, ${values.source.length} --source).`);
  }
  return { indexUrl: url, ...(values.source ? { sourceNames: values.source } : {}) };
}
