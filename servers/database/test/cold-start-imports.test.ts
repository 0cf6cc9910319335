import { fileURLToPath } from 'node:url';
import { modulesLoadedAnswering } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledSources, distFiles } from '../../../scripts/tools/server-bundle-checks.mjs';
import { binPath, makeFixture } from './fixtures.js';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));

/** Run before the server: says on stderr when a number formatter is made (the first loads ICU's locale data, ~25 ms). */
const logNumberFormats = `Intl.NumberFormat = new Proxy(Intl.NumberFormat, {
  construct(target, args) {
    process.stderr.write('made Intl.NumberFormat\\n');
    return Reflect.construct(target, args);
  },
});`;

describe('cold start of mcpkit-database', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('a SQLite server loads no pg, better-sqlite3 or ICU number data before answering tools/list', async () => {
    const { modules: loaded, stderr } = await modulesLoadedAnswering(
      [binPath, fixture.file],
      [
        {
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold-start', version: '1' } },
        },
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/list' },
      ],
      { preload: logNumberFormats },
    );
    expect(stderr).not.toContain('made Intl.NumberFormat');
    // The log works: the SQLite engine was seen (the bundle's files hold it; their source maps say which modules).
    const sources = bundledSources(packageRoot, distFiles(packageRoot, loaded));
    expect(sources).toContain('src/engines/sqlite/sqlite-engine.ts');
    // better-sqlite3 runs in the worker processes only (the first one opens the file after tools/list; ADR 0200).
    expect(loaded.filter((line) => /\/node_modules\/(pg|pg-[a-z-]+|better-sqlite3)\//.test(line))).toEqual([]);
    expect(sources.filter((source) => /postgres|sample-database/.test(source))).toEqual([]);
  });
});
