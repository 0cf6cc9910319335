#!/usr/bin/env node
// Runs every benchmark area: each folder bench/<area>/ with a run.mjs, one after another (never in parallel: they
// measure time on a shared machine). Each prints its own table; this prints which ran, how long, and which failed.
//   node bench/run-all.mjs [AREA...] [-- ARGS...]   e.g. node bench/run-all.mjs kit -- --quick
// Build first (`npm run bench` does: turbo build, then this).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDirectory = fileURLToPath(new URL('.', import.meta.url));
const separator = process.argv.indexOf('--');
const chosen = process.argv.slice(2, separator === -1 ? undefined : separator);
const passed = separator === -1 ? [] : process.argv.slice(separator + 1);

const areas = readdirSync(benchDirectory, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
  .map((entry) => entry.name)
  .filter((name) => existsSync(join(benchDirectory, name, 'run.mjs')))
  .filter((name) => chosen.length === 0 || chosen.includes(name))
  .sort();

const unknown = chosen.filter((name) => !areas.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`run-all: no bench/<area>/run.mjs for: ${unknown.join(', ')}\n`);
  process.exit(2);
}

const summary = [];
for (const area of areas) {
  process.stderr.write(`\n=== bench/${area} ===\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(benchDirectory, area, 'run.mjs'), ...passed], {
    stdio: 'inherit',
    cwd: join(benchDirectory, '..'),
  });
  summary.push({ area, seconds: (Date.now() - started) / 1000, ok: result.status === 0 });
}

process.stderr.write(
  `\n${summary.map(({ area, seconds, ok }) => `${ok ? 'ok    ' : 'FAILED'} bench/${area} (${seconds.toFixed(1)} s)`).join('\n')}\n`,
);
process.exit(summary.every(({ ok }) => ok) ? 0 : 1);
