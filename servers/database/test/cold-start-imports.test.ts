import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, makeFixture } from './fixtures.js';

/**
 * Preloaded with --import: writes `loaded <url>` to stderr for every module the process loads, and `made
 * Intl.NumberFormat` for every number formatter (the first one loads ICU's locale data, about 25 ms).
 */
const logLoadedModules = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register('data:text/javascript,' + encodeURIComponent(
     "export async function load(url, context, next) { process.stderr.write('loaded ' + url + '\\\\n'); return next(url, context); }"));
   Intl.NumberFormat = new Proxy(Intl.NumberFormat, {
     construct(target, args) {
       process.stderr.write('made Intl.NumberFormat\\n');
       return Reflect.construct(target, args);
     },
   });`,
)}`;

describe('cold start of mcpkit-database', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('a SQLite server loads no pg, better-sqlite3 or ICU number data before answering tools/list', async () => {
    const child = spawn(process.execPath, ['--import', logLoadedModules, binPath, fixture.file], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold-start', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    await expect.poll(() => stdout.includes('"id":2'), { timeout: 20_000 }).toBe(true);
    const loaded = stderr.split('\n').filter((line) => line.startsWith('loaded '));
    expect(stderr).not.toContain('made Intl.NumberFormat');
    child.kill();
    // The log works: the SQLite engine was seen.
    expect(loaded.some((line) => line.includes('/sqlite-engine.js'))).toBe(true);
    // better-sqlite3 runs in the worker processes only (the first one opens the file after tools/list; ADR 0200).
    expect(
      loaded.filter((line) =>
        /\/node_modules\/(pg|pg-[a-z-]+|better-sqlite3)\/|\/postgres-engine\.js|\/sample-database\.js/.test(line),
      ),
    ).toEqual([]);
  });
});
