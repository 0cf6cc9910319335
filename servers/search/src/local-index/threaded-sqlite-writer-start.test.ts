import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { IndexDatabase } from './index-database.js';
import { threadedSqliteWriter } from './threaded-sqlite-writer.js';

// Threads that cannot even be created: their module is missing (a broken install).
vi.mock('@mcpkit/server-kit/compiled-module', () => ({
  compiledModule: (module: URL) => {
    throw new Error(`The worker module ${module.href} does not exist; build the package.`);
  },
}));

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-threads-missing-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

it('fails the write when its threads cannot start, and still closes (so the database can be closed after it)', async () => {
  const database = new IndexDatabase(join(base, 'index.sqlite'));
  const writer = threadedSqliteWriter({ database, roots: [base], maxFileSize: 1 << 20 });
  try {
    // Closed while the start is under way (a server shutting down as its first indexing run begins).
    const write = writer.indexFiles(base, []);
    const closing = writer.close();
    await expect(write).rejects.toThrow(/does not exist; build the package/);
    await expect(closing).resolves.toBeUndefined();
  } finally {
    database.close();
  }
});
