import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bin of one of the reference servers in this checkout, resolved through the workspace's node_modules. */
export function serverBin(packageName: string, binName: string): string {
  // The package's entry point is dist/index.js; its bin folder sits beside dist.
  const entry = fileURLToPath(import.meta.resolve(packageName));
  return join(dirname(entry), '..', 'bin', `${binName}.js`);
}

/** Where the demo's sample data lives. */
export interface SampleData {
  databaseFile: string;
  documentsDirectory: string;
  searchIndexFile: string;
}

/**
 * The demo's servers in the Claude Desktop `mcpServers` format, exactly as a user would write it, with the three
 * reference servers started from this checkout by the Node that runs the demo.
 */
export function demoServers(data: SampleData): { mcpServers: Record<string, { command: string; args: string[] }> } {
  const node = process.execPath;
  return {
    mcpServers: {
      database: {
        command: node,
        args: [serverBin('@mcpkit/server-database', 'mcpkit-database'), data.databaseFile],
      },
      files: {
        command: node,
        args: [serverBin('@mcpkit/server-filesystem', 'mcpkit-filesystem'), '--read-only', data.documentsDirectory],
      },
      search: {
        command: node,
        args: [
          serverBin('@mcpkit/server-search', 'mcpkit-search'),
          '--index-file',
          data.searchIndexFile,
          data.documentsDirectory,
        ],
      },
    },
  };
}
