#!/usr/bin/env node
// Database benchmark: mcpkit-database over stdio (from its bin) against DBHub (@bytebase/dbhub, the most used
// database MCP server) over stdio on the same 1,000,000-row SQLite file, with better-sqlite3 called in this process
// as the floor; calls alternate between the servers so both see the same machine load. Also PostgreSQL (mcpkit
// against pg called directly) and how close to its deadline a runaway query is stopped. Prints Markdown tables;
// `--write` also puts them in README.md. PostgreSQL runs on a throwaway cluster
// (servers/database/scripts/postgres-cluster.mjs); --no-postgres leaves it out. `--baseline BIN` adds a column for
// another build of mcpkit-database (for example a copy of an earlier commit), measured in the same rotation.
// `--only point,limit` times only those SQLite rows (of point, limit, aggregate), without cold starts, the runaway
// query or PostgreSQL: a quick A/B (it cannot be written into the README). `--server BIN` measures another build as
// "mcpkit" than the workspace's.
//   node bench/database/run.mjs [--runs N] [--write] [--no-postgres] [--baseline PATH/bin/mcpkit-database.js]
//     [--only point,limit] [--server PATH/bin/mcpkit-database.js]
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';
import { writeResultsIntoReadme } from '../readme-results.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    write: { type: 'boolean' },
    'no-postgres': { type: 'boolean' },
    baseline: { type: 'string' },
    server: { type: 'string' },
    only: { type: 'string' },
  },
});
const only = values.only?.split(',');
if (only && values.write) throw new Error('--only measures part of the table; it cannot be written into the README.');
const runs = Number(values.runs);
const loadAtStart = loadavg()[0];
const here = fileURLToPath(new URL('.', import.meta.url));
const dataDirectory = join(here, '..', '.data');
const file = join(dataDirectory, 'database-1m.sqlite');
const bin = values.server ?? fileURLToPath(new URL('../../servers/database/bin/mcpkit-database.js', import.meta.url));
const dbhubBin = createRequire(import.meta.url).resolve('@bytebase/dbhub/dist/index.js');
const dbhubVersion = JSON.parse(readFileSync(join(dbhubBin, '..', '..', 'package.json'), 'utf8')).version;
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
// DBHub's execute_sql takes no parameters, so every server gets the same statement text with the id inline.
const pointSql = (index) => `SELECT * FROM events WHERE id = ${pointId(index)}`;
const limitSql = 'SELECT * FROM events LIMIT 500';
const aggregateSql =
  'SELECT kind, count(*) AS events, round(sum(amount), 2) AS total FROM events WHERE user_id < 500 GROUP BY kind';
const allOperations = [
  { key: 'point', label: 'point query by primary key', sql: pointSql, count: runs },
  { key: 'limit', label: '`SELECT *` with `LIMIT 500`', sql: () => limitSql, count: Math.max(20, runs / 5) },
  {
    key: 'aggregate',
    label: 'aggregate (`GROUP BY` over a scan of 1M rows)',
    sql: () => aggregateSql,
    count: Math.max(10, runs / 30),
  },
];
const operations = only ? allOperations.filter((operation) => only.includes(operation.key)) : allOperations;
if (only && operations.length !== only.length) throw new Error(`--only takes point, limit and aggregate, not ${only}.`);
const coldStarts = only ? 0 : Math.max(5, Math.round(runs / 30));

generate();

// The file is read through once first, so that the floor, measured first, does not pay for a cold page cache that
// the servers after it would find warm (a first run after the machine had been idle measured the floor's point
// query at 0.395 ms instead of about 0.04 ms).
readFileSync(file);

// The floor: better-sqlite3 in this process, the same statements, each prepared once (the point query as one
// statement with the id bound).
const direct = new Database(file, { readonly: true });
const floor = {};
for (const operation of operations) {
  const statement = direct.prepare(operation.key === 'point' ? 'SELECT * FROM events WHERE id = ?' : operation.sql(0));
  const run = (index) => (operation.key === 'point' ? statement.get(pointId(index)) : statement.all());
  floor[operation.key] = await time(run, operation.count);
}
direct.close();

/** The servers compared, each started over stdio as a client configures it. */
const contenders = [
  {
    name: 'mcpkit',
    spawn: { command: process.execPath, args: [bin, file, '--timeout-ms', '10000', '--log-level', 'emergency'] },
    call: (sql) => ['query', { sql, max_rows: 500 }],
  },
  {
    name: 'dbhub',
    spawn: { command: process.execPath, args: [dbhubBin, '--transport', 'stdio', '--dsn', `sqlite://${file}`] },
    call: (sql) => ['execute_sql', { sql }],
  },
  ...(values.baseline
    ? [
        {
          name: 'baseline',
          spawn: {
            command: process.execPath,
            args: [values.baseline, file, '--timeout-ms', '10000', '--log-level', 'emergency'],
          },
          call: (sql) => ['query', { sql, max_rows: 500 }],
        },
      ]
    : []),
];

/** Times `run` for each contender in turn, rotating who goes first, after a warm-up; returns medians by name. */
async function interleaved(count, run) {
  const samples = Object.fromEntries(contenders.map((contender) => [contender.name, []]));
  const warmUp = Math.min(20, count);
  for (let index = -warmUp; index < count; index += 1) {
    for (let turn = 0; turn < contenders.length; turn += 1) {
      const contender = contenders[(Math.abs(index) + turn) % contenders.length];
      const started = performance.now();
      await run(contender, index);
      if (index >= 0) samples[contender.name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

// Cold start: from spawning the process to the answer of tools/list (initialize included).
const cold = await interleaved(coldStarts, async (contender) => {
  if (coldStarts === 0) return;
  const client = await spawnTestClient(contender.spawn);
  const { tools } = await client.client.listTools();
  if (tools.length === 0) throw new Error(`${contender.name} lists no tools.`);
  await client.close();
});

for (const contender of contenders) contender.client = await spawnTestClient(contender.spawn);
const expectedRows = { point: 1, limit: 500, aggregate: 4 };
const measured = {};
for (const operation of operations) {
  measured[operation.key] = await interleaved(operation.count, async (contender, index) => {
    const [tool, args] = contender.call(operation.sql(Math.max(0, index)));
    const result = await contender.client.callTool(tool, args);
    if (result.isError) throw new Error(`${contender.name}: ${JSON.stringify(result.content)}`);
    if (index === 0) checkRows(contender.name, operation.key, result, expectedRows[operation.key]);
  });
}

/** Fails the run when a server answered with other rows than asked (so that no row times a cut or empty result). */
function checkRows(name, key, result, expected) {
  const rows =
    name === 'dbhub'
      ? JSON.parse(result.content[0].text).data.rows.length
      : (result.structuredContent?.rows?.length ?? -1);
  if (rows !== expected) throw new Error(`${name} returned ${rows} rows for ${key}, not ${expected}.`);
}

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

for (const contender of contenders) await contender.client.close();
let sqliteOvershoots;
if (!only) {
  const runawayClient = await spawnTestClient({
    command: process.execPath,
    args: [bin, file, '--timeout-ms', '1000', '--log-level', 'emergency'],
  });
  sqliteOvershoots = await overshoots(
    runawayClient,
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
  );
  await runawayClient.close();
}

let postgres;
if (!values['no-postgres'] && !only) {
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
      limit: await time(() => direct.query(limitSql), Math.max(20, runs / 5)),
    };
    await direct.end();
    const pgClient = await spawnTestClient({
      command: process.execPath,
      args: [bin, cluster.url, '--timeout-ms', '1000', '--log-level', 'emergency'],
    });
    const call = async (args) => {
      const result = await pgClient.callTool('query', args);
      if (result.isError) throw new Error(JSON.stringify(result.content));
    };
    const pgStdio = {
      point: await time((index) => call({ sql: pgPoint, params: [pointId(index)] }), runs),
      limit: await time(() => call({ sql: limitSql, max_rows: 500 }), Math.max(20, runs / 5)),
    };
    const pgOvershoots = await overshoots(pgClient, 'SELECT pg_sleep(30)');
    await pgClient.close();
    postgres = { floor: pgFloor, stdio: pgStdio, overshoots: pgOvershoots };
  } finally {
    cluster.stop();
  }
}

const ms = (value) => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;
const ratio = (value, base) => `${(value / base).toFixed(2)}x`;
/** A Markdown table with padded columns, the way the repository's formatter (Biome) writes them. */
function markdownTable(header, body) {
  const rows = [header, ...body];
  const widths = header.map((_, column) => Math.max(3, ...rows.map((row) => row[column].length)));
  const line = (row) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

const baseline = Boolean(values.baseline);
const sqliteRow = (label, floorTime, times) => [
  label,
  floorTime === undefined ? '-' : ms(floorTime),
  ms(times.dbhub),
  ...(baseline ? [ms(times.baseline), ratio(times.baseline, times.dbhub)] : []),
  ms(times.mcpkit),
  ratio(times.mcpkit, times.dbhub),
  floorTime === undefined ? '-' : ratio(times.mcpkit, floorTime),
];
const table = [
  markdownTable(
    [
      'SQLite, 1,000,000-row table, over stdio',
      'floor (better-sqlite3)',
      `DBHub ${dbhubVersion}`,
      ...(baseline ? ['mcpkit before', 'before / DBHub'] : []),
      'mcpkit',
      'mcpkit / DBHub',
      'mcpkit / floor',
    ],
    [
      ...operations.map((operation) => sqliteRow(operation.label, floor[operation.key], measured[operation.key])),
      ...(only ? [] : [sqliteRow('cold start to `tools/list`', undefined, cold)]),
    ],
  ),
  ...(postgres
    ? [
        '',
        markdownTable(
          ['PostgreSQL, 1,000,000-row table, over stdio', 'floor (pg)', 'mcpkit', 'mcpkit / floor'],
          [
            ['point query by primary key', postgres.floor.point, postgres.stdio.point],
            ['`SELECT *` with `LIMIT 500`', postgres.floor.limit, postgres.stdio.limit],
          ].map(([label, floorTime, ours]) => [label, ms(floorTime), ms(ours), ratio(ours, floorTime)]),
        ),
      ]
    : []),
  ...(sqliteOvershoots
    ? [
        '',
        markdownTable(
          ['runaway query, deadline 1,000 ms, over stdio', 'median past the deadline', 'worst of 5'],
          [
            ['SQLite: recursive CTE without end', ms(median(sqliteOvershoots)), ms(Math.max(...sqliteOvershoots))],
            ...(postgres
              ? [
                  [
                    'PostgreSQL: `SELECT pg_sleep(30)`',
                    ms(median(postgres.overshoots)),
                    ms(Math.max(...postgres.overshoots)),
                  ],
                ]
              : []),
          ],
        ),
      ]
    : []),
].join('\n');

const note = `Node ${process.version}; medians of ${operations.map((operation) => `${operation.count} ${operation.key}`).join(', ')} calls and ${coldStarts} cold starts per server, interleaved; load average (1 minute) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end; ${new Date().toISOString().slice(0, 10)}.`;
process.stdout.write(`${table}\n\n${note}\n`);
if (values.write) {
  writeResultsIntoReadme(join(here, 'README.md'), `${table}\n\n${note}\n`, {
    start: '<!-- results -->',
    end: '<!-- /results -->',
  });
}
