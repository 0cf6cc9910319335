// The search benchmark: index build, unchanged re-index and query latency through MCP, next to a ripgrep scan.
// Usage: node bench/search/run.mjs [--files N] [--iterations N] [--backend sqlite|postgres] [--queries-only] [--bin PATH]
//        [--index-file FILE] (with --queries-only: an index built by that --bin, e.g. of another schema)
//        [--cold-starts N] (SQLite: N cold starts of the server and of a raw SDK server with the same tools; 0 skips)
// (build first: npx turbo run build). --queries-only reuses the corpus and index of an earlier run and measures only
// the queries; --bin runs another build of the server (a copy of an older dist/ and bin/) for a before/after table.
// --backend postgres starts a throwaway PostgreSQL cluster (the database server's script) and indexes into it; the
// server then runs as a reader (`--index-url URL`, no folder).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { coldStartRows, measureColdStart } from './cold-start.mjs';
import { generateCorpus, plantedTerms } from './generate-corpus.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string' },
    iterations: { type: 'string' },
    'queries-only': { type: 'boolean' },
    bin: { type: 'string' },
    backend: { type: 'string' },
    'index-file': { type: 'string' },
    'cold-starts': { type: 'string' },
  },
});
const backend = values.backend ?? 'sqlite';
if (backend !== 'sqlite' && backend !== 'postgres') throw new Error('--backend is sqlite or postgres');
const files = Number(values.files ?? 100_000);
const iterations = Number(values.iterations ?? 30);
const data = join(import.meta.dirname, '..', '.data');
// One corpus folder per size, so a quick run does not overwrite the 100,000-file corpus (written in about a minute).
const corpus = join(data, files === 20_000 ? 'search-corpus' : `search-corpus-${files}`);
const indexFile = values['index-file'] ?? join(data, 'search-index.sqlite');
const bin = values.bin ?? join(import.meta.dirname, '..', '..', 'servers', 'search', 'bin', 'mcpkit-search.js');

function ensureRipgrep() {
  if (spawnSync('rg', ['--version']).status === 0) return true;
  console.error('ripgrep is missing; installing it with apt-get (Debian package "ripgrep")');
  const install = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq ripgrep'], { stdio: 'inherit' });
  return install.status === 0 && spawnSync('rg', ['--version']).status === 0;
}

async function ensureCorpus() {
  const marker = `${corpus}.json`;
  if (existsSync(marker) && JSON.parse(readFileSync(marker, 'utf8')).files === files) {
    return JSON.parse(readFileSync(marker, 'utf8'));
  }
  console.error(`Generating ${files} files in ${corpus} ...`);
  const result = await generateCorpus({ files, out: corpus });
  writeFileSync(marker, JSON.stringify(result));
  return result;
}

function indexOnce(location) {
  const output = execFileSync(process.execPath, [join(import.meta.dirname, 'index-child.mjs'), location, corpus], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(output.trim().split('\n').at(-1));
}

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
const summarize = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

/** The on-disk size of the index tables with their indexes and TOAST. */
async function postgresIndexBytes(url) {
  // pg is a dependency of the search server, not of the bench package.
  const pg = createRequire(join(import.meta.dirname, '..', '..', 'servers', 'search', 'package.json'))('pg');
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT sum(pg_total_relation_size(name::regclass))::bigint AS bytes
       FROM unnest(ARRAY['search_documents', 'search_passages', 'search_stats', 'search_meta']) AS name`,
    );
    return Number(rows[0].bytes);
  } finally {
    await client.end();
  }
}

async function main() {
  const queriesOnly = values['queries-only'] ?? false;
  const haveRipgrep = !queriesOnly && ensureRipgrep();
  const generated = await ensureCorpus();
  let build;
  let reindex;
  let cluster;
  let location = indexFile;
  if (backend === 'postgres') {
    if (queriesOnly) throw new Error('--queries-only works with the SQLite backend only (the cluster is thrown away)');
    const { startPostgresCluster } = await import('../../servers/database/scripts/postgres-cluster.mjs');
    cluster = await startPostgresCluster();
    location = cluster.url;
    console.error('Building the index in PostgreSQL ...');
    build = indexOnce(location);
    console.error(`  ${(build.ms / 1000).toFixed(1)} s, peak RSS ${build.maxRssMb.toFixed(0)} MB`);
    reindex = indexOnce(location);
    console.error(`  unchanged re-index ${(reindex.ms / 1000).toFixed(2)} s`);
  } else if (queriesOnly) {
    if (!existsSync(indexFile)) throw new Error(`--queries-only needs the index of an earlier full run: ${indexFile}`);
  } else {
    for (const suffix of ['', '-wal', '-shm']) rmSync(indexFile + suffix, { force: true });
    console.error('Building the index ...');
    build = indexOnce(location);
    console.error(`  ${(build.ms / 1000).toFixed(1)} s, peak RSS ${build.maxRssMb.toFixed(0)} MB`);
    reindex = indexOnce(location);
    console.error(`  unchanged re-index ${(reindex.ms / 1000).toFixed(2)} s`);
  }
  const indexBytes = cluster
    ? await postgresIndexBytes(cluster.url)
    : ['', '-wal'].reduce((sum, suffix) => {
        try {
          return sum + readFileSync(indexFile + suffix).byteLength;
        } catch {
          return sum;
        }
      }, 0);

  const queries = [...plantedTerms.map(({ term }) => term), 'lighthouse quartermaster'];
  const client = await spawnTestClient({
    command: process.execPath,
    args: cluster
      ? [bin, '--index-url', cluster.url, '--log-level', 'error']
      : [bin, '--index-file', indexFile, '--no-watch', '--log-level', 'error', corpus],
  });
  // The server checks the directory at start; measure once that pass is over.
  for (;;) {
    const status = await client.callTool('index_status');
    if (status.structuredContent?.ready) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const mcp = {};
  for (const query of queries) {
    const times = [];
    for (let run = 0; run < iterations + 3; run++) {
      const started = performance.now();
      const result = await client.callTool('search', { query, limit: 10 });
      const elapsed = performance.now() - started;
      if (result.isError) throw new Error(`search ${query} failed: ${JSON.stringify(result.content)}`);
      if (run >= 3) times.push(elapsed);
    }
    mcp[query] = summarize(times);
  }
  await client.close();
  cluster?.stop();

  const ripgrep = {};
  if (haveRipgrep) {
    for (const query of queries) {
      const times = [];
      for (let run = 0; run < 6; run++) {
        const started = performance.now();
        // Same question as the MCP search: which files mention the term (any word of the query), case-insensitively.
        const patterns = query.split(' ').flatMap((word) => ['-e', word]);
        spawnSync('rg', ['-i', '-l', '--fixed-strings', ...patterns, corpus], { stdio: 'ignore' });
        if (run > 0) times.push(performance.now() - started);
      }
      ripgrep[query] = summarize(times);
    }
  }

  // Cold start next to a raw SDK server with the same tools, on this corpus and index (SQLite: the server opens the
  // index only after answering, so the index's size should not matter).
  const coldStarts = Number(values['cold-starts'] ?? 15);
  const coldStart =
    backend === 'sqlite' && coldStarts > 0
      ? await measureColdStart({ directory: corpus, indexFile, runs: coldStarts, bins: [bin] })
      : undefined;

  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const rows = [
    ...(values.bin ? [`Server build: ${bin}`] : []),
    `Load average at the end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(', ')} on ${cpus().length} cores.`,
    `Backend: ${backend === 'postgres' ? 'PostgreSQL (server run as a reader with --index-url)' : 'SQLite FTS5 file'}.`,
    `Corpus: ${generated.files.toLocaleString('en-US')} files, ${mb(generated.bytes)} of text; index ${mb(indexBytes)} (${(indexBytes / generated.bytes).toFixed(3)}x the corpus); ${iterations} queries each.`,
    '',
    '| measure | mcpkit-search | ripgrep scan | ratio (rg / mcpkit) |',
    '|---|---:|---:|---:|',
  ];
  if (build && reindex) {
    rows.push(
      `| full index build | ${(build.ms / 1000).toFixed(1)} s (${(build.cpuMs / 1000).toFixed(1)} s CPU, peak RSS ${build.maxRssMb.toFixed(0)} MB) | | |`,
      `| unchanged re-index | ${(reindex.ms / 1000).toFixed(2)} s (${(reindex.cpuMs / 1000).toFixed(2)} s CPU) | | |`,
    );
  }
  for (const query of queries) {
    const ours = mcp[query];
    const theirs = ripgrep[query];
    rows.push(
      `| query \`${query}\` median (p95) | ${ours.median.toFixed(1)} ms (${ours.p95.toFixed(1)} ms) | ${theirs ? `${theirs.median.toFixed(0)} ms (${theirs.p95.toFixed(0)} ms)` : 'n/a'} | ${theirs ? `${(theirs.median / ours.median).toFixed(0)}x` : 'n/a'} |`,
    );
  }
  if (coldStart) rows.push('', ...coldStartRows(coldStart, coldStarts));
  const table = rows.join('\n');
  console.log(table);
  writeFileSync(join(data, `search-results-${backend}.md`), `${table}\n`);
}

await main();
