import { readFileSync } from 'node:fs';
import { runServerCommand, UsageError } from '@mcpkit/server-kit';
import { createSampleDatabase } from './sample-database.js';
import { createDatabaseServer } from './server.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new UsageError(`--${flag} takes a positive integer; got ${JSON.stringify(value)}.`);
  }
  return number;
}

// `mcpkit-database sample FILE` writes the demo database and exits; everything else serves a database.
if (process.argv[2] === 'sample') {
  const file = process.argv[3];
  if (!file) {
    process.stderr.write('Usage: mcpkit-database sample FILE\n');
    process.exit(2);
  }
  try {
    const summary = createSampleDatabase(file);
    const counts = Object.entries(summary.tables).map(([table, rows]) => `${table} ${rows}`);
    process.stderr.write(`Wrote the sample database ${file} (${counts.join(', ')} rows).\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`mcpkit-database: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

await runServerCommand(
  {
    name: 'mcpkit-database',
    version,
    description:
      'An MCP server for a SQLite or PostgreSQL database: read-only by default, bounded queries, schema as resources.',
    positionals: 'FILE.sqlite | postgres://USER:PASSWORD@HOST:PORT/DATABASE  (or: mcpkit-database sample FILE)',
    requirePositionals: true,
    flags: {
      'allow-write': { type: 'boolean', description: 'Open the database for writing and offer the execute tool' },
      create: { type: 'boolean', description: 'Create an empty database when the file does not exist' },
      'max-rows': { type: 'string', valueName: 'N', description: 'Rows one query returns at most (500)' },
      'timeout-ms': { type: 'string', valueName: 'MS', description: 'Milliseconds a statement may run (5000)' },
    },
  },
  (parsed) => {
    if (parsed.positionals.length > 1) {
      throw new UsageError(`mcpkit-database serves one database; got ${parsed.positionals.length} arguments.`);
    }
    const maxRows = positiveInteger('max-rows', parsed.values['max-rows']);
    const timeoutMs = positiveInteger('timeout-ms', parsed.values['timeout-ms']);
    return createDatabaseServer({
      file: parsed.positionals[0] as string,
      allowWrite: parsed.values['allow-write'] === true,
      create: parsed.values.create === true,
      limits: { ...(maxRows ? { maxRows } : {}), ...(timeoutMs ? { timeoutMs } : {}) },
      logLevel: parsed.logLevel,
      version,
    });
  },
);
