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

/** Run before the server: names on stderr the built-ins `node:child_process` and `node:v8` if loaded at the answer to id 2. */
const logWorkerBuiltins = `const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"id":2')) {
    for (const name of ['child_process', 'v8'])
      if (process.moduleLoadList.includes('NativeModule ' + name)) process.stderr.write('built-in loaded: ' + name + '\\n');
  }
  return writeOut(chunk, ...rest);
};`;

describe('cold start of mcpkit-database', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('a SQLite server loads no pg, better-sqlite3, ICU number data or worker built-ins before answering tools/list', async () => {
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
      { preload: `${logNumberFormats}\n${logWorkerBuiltins}` },
    );
    expect(stderr).not.toContain('made Intl.NumberFormat');
    // The first worker starts after the answer: spawning it and framing its requests take `node:child_process` and
    // `node:v8` then (with `net` and `dgram` behind the first; ADR 0021).
    expect(stderr).not.toContain('built-in loaded');
    // The log works: the SQLite engine was seen (the bundle's files hold it; their source maps say which modules).
    const sources = bundledSources(packageRoot, distFiles(packageRoot, loaded));
    expect(sources).toContain('src/engines/sqlite/sqlite-engine.ts');
    // better-sqlite3 runs in the worker processes only (the first one opens the file after tools/list; ADR 0200).
    expect(loaded.filter((line) => /\/node_modules\/(pg|pg-[a-z-]+|better-sqlite3)\//.test(line))).toEqual([]);
    expect(sources.filter((source) => /postgres|sample-database/.test(source))).toEqual([]);
  });
});
