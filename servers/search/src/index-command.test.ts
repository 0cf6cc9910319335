import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { indexCommand } from './index-command.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-index-command-'));
  mkdirSync(join(base, 'docs'));
  writeFileSync(join(base, 'docs', 'note.md'), 'a note about owls\n');
  // The run's progress and report lines are not this test's subject.
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

function signalListeners() {
  return { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
}

it('takes its SIGINT and SIGTERM listeners away when the run ends', async () => {
  const before = signalListeners();
  await indexCommand.run({ values: { 'index-file': join(base, 'index.sqlite') }, positionals: [join(base, 'docs')] });
  // Left behind, a later Ctrl-C would only abort a run long over (the process would not stop).
  expect(signalListeners()).toEqual(before);
});

it('stops a --watch run at the first signal and takes both listeners away then, so a second one ends the process', async () => {
  const before = signalListeners();
  const run = indexCommand.run({
    values: { 'index-file': join(base, 'index.sqlite'), watch: true },
    positionals: [join(base, 'docs')],
  });
  await vi.waitFor(() => expect(process.listenerCount('SIGINT')).toBe(before.SIGINT.length + 1), { timeout: 10_000 });
  const [stop] = process.listeners('SIGINT').filter((listener) => !before.SIGINT.includes(listener));
  // As Node calls a listener for a signal (emitting SIGINT here would reach the test runner's listeners too).
  stop?.('SIGINT');
  expect(signalListeners()).toEqual(before);
  await run;
  expect(signalListeners()).toEqual(before);
});

it('says a run stopped by Ctrl-C stopped, not that it failed, and exits 130', async () => {
  // Enough files that the run is still under way when the signal comes.
  for (let file = 0; file < 2000; file++)
    writeFileSync(join(base, 'docs', `note-${file}.md`), `note ${file} on owls\n`);
  const before = signalListeners();
  const run = indexCommand.run({
    values: { 'index-file': join(base, 'index.sqlite') },
    positionals: [join(base, 'docs')],
  });
  await vi.waitFor(() => expect(process.listenerCount('SIGINT')).toBe(before.SIGINT.length + 1), { timeout: 10_000 });
  const [stop] = process.listeners('SIGINT').filter((listener) => !before.SIGINT.includes(listener));
  stop?.('SIGINT');
  try {
    // Resolves: the command's runner would print a rejection as "mcpkit-search: This operation was aborted", exit 1.
    await run;
    expect(process.exitCode).toBe(130);
    expect(process.stderr.write).toHaveBeenCalledWith(expect.stringContaining('Stopped before the end'));
  } finally {
    process.exitCode = 0;
  }
  expect(signalListeners()).toEqual(before);
});
