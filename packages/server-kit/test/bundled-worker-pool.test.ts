import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { resultText, spawnTestClient } from '../src/testing/index.js';
import { expectFreshBundle } from './support/fresh-bundle.js';

// This file runs the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

const server = fileURLToPath(new URL('./fixtures/off-thread-server.mjs', import.meta.url));

// The worker pool's unit tests run the pool from src/ (its thread entry found as the compiled twin in dist/); this
// runs it as a dependent does: the pool from the bundle, naming the thread entry the bundler emitted and rewrote the
// reference to (rolldown.config.mjs, ADR 0020). An entry missing from dist/, a reference to the wrong file, or an
// entry that loads but answers nothing fails it.
describe('the worker pool from the bundled package', () => {
  it('runs a tool on a worker thread through the kit as a dependent imports it', async () => {
    await using client = await spawnTestClient({ command: process.execPath, args: [server] });
    const thread = await client.callTool('run_task', { name: 'thread' });
    expect(thread.isError, `${resultText(thread)}\n${client.stderr()}`).toBeFalsy();
    // On a worker thread, not the main thread (0).
    expect(JSON.parse(resultText(thread))).toBeGreaterThan(0);
    expect(await client.callToolText('run_task', { name: 'double', input: 21 })).toBe('42');
    // A task's ToolError (from `./task`) is known as one by the bundle's thread entry and pool: its sentence reaches
    // the model, where any other error would be a logged internal error.
    const refused = await client.callTool('run_task', { name: 'refuse', input: 'no such file' });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toBe('no such file');
  });
});
