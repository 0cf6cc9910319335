#!/usr/bin/env node
// Database benchmark: mcpkit-database (in memory and over stdio from its bin) against the driver called directly
// in-process (the floor: better-sqlite3 for SQLite, pg for PostgreSQL), on a generated table of 1,000,000 rows;
// plus how close to its deadline a runaway query is stopped. Prints Markdown tables; `--write` also puts them in
// README.md. PostgreSQL runs on a throwaway cluster (servers/database/scripts/postgres-cluster.mjs); --no-postgres
// leaves it out.
//   node bench/database/run.mjs [--runs N] [--write] [--no-postgres]
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabaseServer } from '@mcpkit/server-database';
import { connectTestClient, spawnTestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '300' }, write: { type: 'boolean' }, 'no-postgres': { type: 'boolean' } },
});
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

/** Runs a query that never ends five times under a 1,000 ms limit; returns how long past the deadline each error came. */
async function overshoots(client, sql) {
  const samples = [];
  for (let index = 0; index < 5; index += 1) {
    const started = performance.now();
    const result = await client.callTool('query', { sql });
    if (!result.isError) throw new Error('The runaway query was not stopped.');
    samples.push(performance.now() - started - 1000);
  }
  return samples;
}

const sqliteOvershoots = await overshoots(
  stdioClient,
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
);
await memoryClient.close();
await memoryServer.close();
await stdioClient.close();

let postgres;
if (!values['no-postgres']) {
  const { startPostgresCluster } = await import('../../servers/database/scripts/postgres-cluster.mjs');
  const pg = createRequire(new URL('../../servers/database/package.json', import.meta.url))('pg');
  const cluster = await startPostgresCluster();
  try {
    const direct = new pg.Client(cluster.url);
    await direct.connect();
    const started = performance.now();
    await direct.query(`CREATE TABLE events AS SELECT x AS id, x % 9973 AS user_id,
      (ARRAY['view', 'click', 'buy', 'refund'])[1 + x % 4] AS kind, (x * 7919 % 100000) / 100.0 AS amount,
      'event number ' || x AS note, to_timestamp(1700000000 + x * 60)::text AS created_at
      FROM generate_series(1::bigint, ${rowCount}) AS x`);
    await direct.query('ALTER TABLE events ADD PRIMARY KEY (id)');
    await direct.query('ANALYZE events');
    process.stderr.write(
      `Loaded ${rowCount.toLocaleString('en-US')} rows into PostgreSQL in ${Math.round(performance.now() - started)} ms\n`,
    );
    const pgPoint = 'SELECT * FROM events WHERE id = $1';
    const pgFloor = {
      point: await time((index) => direct.query(pgPoint, [pointId(index)]), runs),
      scan: await time(() => direct.query(`${scanSql} LIMIT 500`), Math.max(20, runs / 5)),
    };
    await direct.end();
    const measurePg = async (client) => ({
      point: await time(async (index) => {
        const result = await client.callTool('query', { sql: pgPoint, params: [pointId(index)] });
        if (result.isError) throw new Error(JSON.stringify(result.content));
      }, runs),
      scan: await time(() => client.callTool('query', { sql: scanSql, max_rows: 500 }), Math.max(20, runs / 5)),
    });
    const pgServer = await createDatabaseServer({
      file: cluster.url,
      logLevel: 'emergency',
      limits: { timeoutMs: 1000 },
    });
    const pgMemoryClient = await connectTestClient(pgServer);
    const pgMemory = await measurePg(pgMemoryClient);
    await pgMemoryClient.close();
    await pgServer.close();
    const pgStdioClient = await spawnTestClient({
      command: process.execPath,
      args: [bin, cluster.url, '--timeout-ms', '1000', '--log-level', 'emergency'],
    });
    const pgStdio = await measurePg(pgStdioClient);
    const pgOvershoots = await overshoots(pgStdioClient, 'SELECT pg_sleep(30)');
    await pgStdioClient.close();
    postgres = { floor: pgFloor, memory: pgMemory, stdio: pgStdio, overshoots: pgOvershoots };
  } finally {
    cluster.stop();
  }
}

const ms = (value) => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;
const ratio = (value, base) => `${(value / base).toFixed(1)}x`;
/** A Markdown table with padded columns, the way the repository's formatter (Biome) writes them. */
function markdownTable(header, body) {
  const rows = [header, ...body];
  const widths = header.map((_, column) => Math.max(3, ...rows.map((row) => row[column].length)));
  const line = (row) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

const rowsOf = (engine, floorName, measured) => [
  [
    `${engine} point query by primary key`,
    floorName,
    ms(measured.floor.point),
    ms(measured.memory.point),
    ms(measured.stdio.point),
    ratio(measured.stdio.point, measured.floor.point),
  ],
  [
    `${engine} \`SELECT *\` capped at 500 rows`,
    floorName,
    ms(measured.floor.scan),
    ms(measured.memory.scan),
    ms(measured.stdio.scan),
    ratio(measured.stdio.scan, measured.floor.scan),
  ],
];
const table = [
  markdownTable(
    [
      'operation (1,000,000-row table)',
      'floor',
      'floor time',
      'mcpkit in memory',
      'mcpkit over stdio (bin)',
      'stdio / floor',
    ],
    [
      ...rowsOf('SQLite', 'better-sqlite3', { floor, memory, stdio }),
      ...(postgres ? rowsOf('PostgreSQL', 'pg', postgres) : []),
    ],
  ),
  '',
  markdownTable(
    ['runaway query, deadline 1,000 ms, over stdio', 'median past the deadline', 'worst of 5'],
    [
      ['SQLite: recursive CTE without end', ms(median(sqliteOvershoots)), ms(Math.max(...sqliteOvershoots))],
      ...(postgres
        ? [['PostgreSQL: `SELECT pg_sleep(30)`', ms(median(postgres.overshoots)), ms(Math.max(...postgres.overshoots))]]
        : []),
    ],
  ),
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
