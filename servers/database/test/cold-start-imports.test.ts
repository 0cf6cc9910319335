import { statSync } from 'node:fs';
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

/**
 * Run before the server, marks on stderr (written at once, in order with the module log): `answered 2` when it writes
 * the answer to request 2, the built-ins `node:child_process` and `node:v8` if loaded by then, and `first worker
 * timer` when a 100 ms timer fires (the engine's first worker, whose timer a loaded machine can fire before the answer;
 * what it loads does not count as the start's).
 */
const markAnswerAndTimer = `import { writeSync } from 'node:fs';
const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"id":2')) {
    for (const name of ['child_process', 'v8'])
      if (process.moduleLoadList.includes('NativeModule ' + name)) writeSync(2, 'built-in loaded: ' + name + '\\n');
    writeSync(2, 'answered 2\\n');
  }
  return writeOut(chunk, ...rest);
};
const startTimer = globalThis.setTimeout;
globalThis.setTimeout = (callback, delay, ...rest) =>
  delay === 100 && typeof callback === 'function'
    ? startTimer((...values) => { writeSync(2, 'first worker timer\\n'); return callback(...values); }, delay, ...rest)
    : startTimer(callback, delay, ...rest);`;

/** What the log says up to the answer to request 2 or the first worker's timer, whichever came first. */
function startOf(stderr: string): { log: string; modules: string[] } {
  const lines = stderr.split('\n');
  const end = lines.findIndex((line) => line === 'answered 2' || line === 'first worker timer');
  if (end === -1) throw new Error(`No answer to tools/list was marked on stderr: ${stderr.slice(-2000)}`);
  const log = lines.slice(0, end);
  return {
    log: log.join('\n'),
    modules: log.filter((line) => line.startsWith('loaded ')).map((line) => line.slice('loaded '.length)),
  };
}

/**
 * Sources that no tools/list needs: the worker processes, their pool and the calls' deadlines (loaded by the first
 * worker's timer or the first call), and what renders or checks a result in the server process (loaded by the call
 * that needs it; ADR 0205).
 */
const afterTheStart = [
  'src/engines/sqlite/worker-calls.ts',
  'src/engines/sqlite/worker-pool.ts',
  'src/engines/sqlite/worker-process.ts',
  'src/engines/sqlite/worker-channel.ts',
  'src/engines/sqlite/worker-memory.ts',
  'src/engines/sqlite/call-stop.ts',
  'src/query-result.ts',
  'src/result-budget.ts',
  'src/result-text.ts',
  'src/statement-safety.ts',
  'src/sql-words.ts',
  'src/table-text.ts',
  'src/engines/cells.ts',
];

describe('cold start of mcpkit-database', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('a SQLite server loads only the definitions, the file check and the engine before answering tools/list', async () => {
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
        { id: 3, method: 'tools/call', params: { name: 'describe_table', arguments: { table: 'numbers' } } },
      ],
      { preload: `${logNumberFormats}\n${markAnswerAndTimer}` },
    );
    const start = startOf(stderr);
    expect(start.log).not.toContain('made Intl.NumberFormat');
    // The first worker starts after the answer: spawning it and framing its requests take `node:child_process` and
    // `node:v8` then (with `net` and `dgram` behind the first; ADR 0021).
    expect(start.log).not.toContain('built-in loaded');
    const atStart = distFiles(packageRoot, start.modules);
    const sources = bundledSources(packageRoot, atStart);
    // The log works: the SQLite engine was seen (the bundle's files hold it; their source maps say which modules).
    expect(sources).toContain('src/engines/sqlite/sqlite-engine.ts');
    expect(sources.filter((source) => afterTheStart.includes(source))).toEqual([]);
    // better-sqlite3 runs in the worker processes only (the first one opens the file after tools/list; ADR 0200).
    expect(start.modules.filter((line) => /\/node_modules\/(pg|pg-[a-z-]+|better-sqlite3)\//.test(line))).toEqual([]);
    expect(sources.filter((source) => /postgres|sample-database/.test(source))).toEqual([]);
    // Of the server's own code, the start reads the entry and one chunk: 53 KB over five files before (ADR 0205).
    const bytes = atStart.reduce((sum, file) => sum + statSync(file).size, 0);
    expect(bytes).toBeLessThan(30_000);
    // And the call after it loaded what it needed: the worker calls, and describe_table's text.
    const all = bundledSources(packageRoot, distFiles(packageRoot, loaded));
    expect(all).toEqual(expect.arrayContaining(['src/engines/sqlite/worker-calls.ts', 'src/table-text.ts']));
  });
});
