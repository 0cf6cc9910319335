#!/usr/bin/env node
// Database benchmark: mcpkit-database (in memory and over stdio from its bin) against better-sqlite3 called
// directly in-process (the floor), on a generated table of 1,000,000 rows; plus how close to its deadline a
// runaway query is stopped. Prints a Markdown table; `--write` also puts it in README.md.
//   node bench/database/run.mjs [--runs N] [--write]
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabaseServer } from '@mcpkit/server-database';
import { connectTestClient, spawnTestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '300' }, write: { type: 'boolean' } } });
const runs = Number(values.runs);
const here = fileURLToPath(new URL('.', import.meta.url));
const dataDirectory = join(here, '..', '.data');
const file = join(dataDirectory, 'database-1m.sqlite');
const bin = fileURLToPath(new URL('../../servers/database/bin/mcpkit-database.js', import.meta.url));
const rowCount = 1_000_000;

function generate() {
  if (existsSync(file)) return;
  mkdirSync(dataDirectory, { recursive: true });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const started = performance.now();
  const db = new Database(partial);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`
    CREATE TABLE events (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, kind TEXT NOT NULL, amount REAL NOT NULL, note TEXT NOT NULL, created_at TEXT NOT NULL);
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${rowCount})
    INSERT INTO events SELECT x, x % 9973, CASE x % 4 WHEN 0 THEN 'view' WHEN 1 THEN 'click' WHEN 2 THEN 'buy' ELSE 'refund' END,
      (x * 7919 % 100000) / 100.0, 'event number ' || x, datetime(1700000000 + x * 60, 'unixepoch') FROM c;
  `);
  db.close();
  renameSync(partial, file);
  process.stderr.write(
    `Generated ${file} (${rowCount.toLocaleString('en-US')} rows) in ${Math.round(performance.now() - started)} ms\n`,
  );
}

const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function time(run, count) {
  for (let index = 0; index < Math.min(20, count); index += 1) await run(index); // warm up
  const samples = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const pointId = (index) => 1 + ((index * 104_729) % rowCount);
const pointSql = 'SELECT * FROM events WHERE id = ?';
const scanSql = 'SELECT * FROM events';

generate();

// The floor: better-sqlite3 in this process, the same statements, the same 500-row cap.
const direct = new Database(file, { readonly: true });
const point = direct.prepare(pointSql);
const scan = direct.prepare(`${scanSql} LIMIT 500`);
const floor = {
  point: await time((index) => point.get(pointId(index)), runs),
  scan: await time(() => scan.all(), Math.max(20, runs / 5)),
};
direct.close();

async function measureServer(client) {
  const call = async (name, args) => {
    const result = await client.callTool(name, args);
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return result;
  };
  return {
    point: await time((index) => call('query', { sql: pointSql, params: [pointId(index)] }), runs),
    scan: await time(() => call('query', { sql: scanSql, max_rows: 500 }), Math.max(20, runs / 5)),
  };
}

const memoryServer = await createDatabaseServer({ file, logLevel: 'emergency', limits: { timeoutMs: 1000 } });
const memoryClient = await connectTestClient(memoryServer);
const memory = await measureServer(memoryClient);

const stdioClient = await spawnTestClient({
  command: process.execPath,
  args: [bin, file, '--timeout-ms', '1000', '--log-level', 'emergency'],
});
const stdio = await measureServer(stdioClient);

// Deadline: a recursive CTE that never ends, stopped at 1,000 ms; the overshoot is the time past the deadline.
const overshoots = [];
for (let index = 0; index < 5; index += 1) {
  const started = performance.now();
  const result = await stdioClient.callTool('query', {
    sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
  });
  if (!result.isError) throw new Error('The runaway query was not stopped.');
  overshoots.push(performance.now() - started - 1000);
}
await memoryClient.close();
await memoryServer.close();
await stdioClient.close();

const ms = (value) => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;
const ratio = (value, base) => `${(value / base).toFixed(1)}x`;
const table = [
  '| operation (1,000,000-row table) | better-sqlite3 direct (floor) | mcpkit in memory | mcpkit over stdio (bin) | stdio / floor |',
  '|---|---|---|---|---|',
  `| point query by primary key | ${ms(floor.point)} | ${ms(memory.point)} | ${ms(stdio.point)} | ${ratio(stdio.point, floor.point)} |`,
  `| \`SELECT *\` capped at 500 rows | ${ms(floor.scan)} | ${ms(memory.scan)} | ${ms(stdio.scan)} | ${ratio(stdio.scan, floor.scan)} |`,
  '',
  '| runaway query, deadline 1,000 ms | median past the deadline | worst of 5 |',
  '|---|---|---|',
  `| recursive CTE without end, over stdio | ${ms(median(overshoots))} | ${ms(Math.max(...overshoots))} |`,
].join('\n');

const note = `Node ${process.version}, ${runs} point queries and ${Math.max(20, runs / 5)} scans per column (medians), ${new Date().toISOString().slice(0, 10)}.`;
process.stdout.write(`${table}\n\n${note}\n`);
if (values.write) {
  const readme = join(here, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf('<!-- results -->');
  const end = text.indexOf('<!-- /results -->');
  if (start === -1 || end === -1) throw new Error('README.md has no results markers.');
  writeFileSync(readme, `${text.slice(0, start)}<!-- results -->\n${table}\n\n${note}\n${text.slice(end)}`);
}
