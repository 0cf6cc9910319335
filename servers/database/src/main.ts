import { defineSubcommand, packageVersion, runServerCommand, UsageError } from '@mcpkit/server-kit/cli';
import { createDatabaseServer } from './server.js';

const version = packageVersion(new URL('../package.json', import.meta.url));

/** `mcpkit-database sample FILE`: writes the demo database, then exits. */
const sampleCommand = defineSubcommand({
  description: 'Writes the demo database (users, customers, products, orders) to FILE, then exits.',
  positionals: 'FILE',
  requirePositionals: true,
  flags: {},
  async run({ positionals }) {
    const [file, ...rest] = positionals as [string, ...string[]];
    if (rest.length > 0) throw new UsageError(`mcpkit-database sample writes one file; got ${positionals.length}.`);
    const { createSampleDatabase } = await import('./sample-database.js');
    const summary = createSampleDatabase(file);
    const counts = Object.entries(summary.tables).map(([table, rows]) => `${table} ${rows}`);
    process.stderr.write(`Wrote the sample database ${file} (${counts.join(', ')} rows).\n`);
  },
});

await runServerCommand(
  {
    name: 'mcpkit-database',
    version,
    description:
      'An MCP server for a SQLite or PostgreSQL database: read-only by default, bounded queries, schema as resources.',
    positionals: 'FILE.sqlite | postgres://USER:PASSWORD@HOST:PORT/DATABASE',
    requirePositionals: true,
    flags: {
      'allow-write': { type: 'boolean', description: 'Open the database for writing and offer the execute tool' },
      create: { type: 'boolean', description: 'Create an empty database when the file does not exist' },
      'auth-write-scope': {
        type: 'string',
        valueName: 'SCOPE',
        description: 'With --auth-issuer, the scope a token needs to call execute (database:write)',
      },
      'max-rows': { type: 'integer', valueName: 'N', description: 'Rows one query returns at most (500)' },
      'timeout-ms': { type: 'integer', valueName: 'MS', description: 'Milliseconds a statement may run (5000)' },
    },
    subcommands: { sample: sampleCommand },
  },
  ({ values, positionals, logLevel }) => {
    if (positionals.length > 1) {
      throw new UsageError(`mcpkit-database serves one database; got ${positionals.length} arguments.`);
    }
    const maxRows = values['max-rows'];
    const timeoutMs = values['timeout-ms'];
    return createDatabaseServer({
      file: positionals[0] as string,
      allowWrite: values['allow-write'] === true,
      ...(values['auth-write-scope'] ? { writeScope: values['auth-write-scope'] } : {}),
      create: values.create === true,
      limits: { ...(maxRows ? { maxRows } : {}), ...(timeoutMs ? { timeoutMs } : {}) },
      logLevel,
      version,
    });
  },
);
