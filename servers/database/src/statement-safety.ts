import { quoted } from './error-text.js';
import { type SqlToken, sqlTokens } from './sql-words.js';

/**
 * The statement rules every engine applies after its own checks. The engine is the boundary (a read-only
 * connection, `query_only`, one prepared statement, its own read-only/returns-rows metadata); these rules are the
 * second look, for the statements that stay within a read-only connection and still have effects.
 */

/** What the engine itself says about a prepared statement. */
export interface StatementFacts {
  /** The engine says the statement does not write the database (`sqlite3_stmt_readonly`). */
  readonly: boolean;
  /** The engine says the statement returns rows. */
  reader: boolean;
}

/** Which tool runs the statement: `read` for query and explain_query, `write` for execute. */
export type StatementMode = 'read' | 'write';

/** Pragmas that only describe the schema or the file; they may take an argument (a table or index name). */
const introspectionPragmas = new Set([
  'TABLE_INFO',
  'TABLE_XINFO',
  'TABLE_LIST',
  'INDEX_LIST',
  'INDEX_INFO',
  'INDEX_XINFO',
  'FOREIGN_KEY_LIST',
  'FOREIGN_KEY_CHECK',
  'INTEGRITY_CHECK',
  'QUICK_CHECK',
  'COLLATION_LIST',
  'FUNCTION_LIST',
  'MODULE_LIST',
  'PRAGMA_LIST',
  'DATABASE_LIST',
  'COMPILE_OPTIONS',
]);

const transactionWords = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/** Functions refused wherever they appear: they reach outside the database even from a read-only connection. */
const refusedFunctions = new Set(['LOAD_EXTENSION', 'READFILE', 'WRITEFILE', 'EDIT', 'FTS3_TOKENIZER']);

/**
 * A statement refused or failed, with a message written for the model. It is not the kit's ToolError because this
 * file also runs inside the SQLite worker process, which stays free of the kit; the engine turns it into one.
 */
export class StatementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatementError';
  }
}

function refuse(message: string): never {
  throw new StatementError(message);
}

// A refusal quotes a word of the statement by its head (`quoted`, 500 characters and how many more): PostgreSQL's rules
// and execute's confirmation run in the server's own process, and a refusal is an error result, outside the result
// budget (ADR 0202).

/** The first word of the statement, skipping comments; undefined for an empty statement. */
export function leadingWord(tokens: readonly SqlToken[]): string | undefined {
  const first = tokens[0];
  return first?.kind === 'word' ? first.value : undefined;
}

function checkPragma(tokens: readonly SqlToken[]): void {
  // PRAGMA [schema.]name [= value | (value)]
  let nameIndex = 1;
  if (tokens[2]?.value === '.') nameIndex = 3;
  const name = tokens[nameIndex]?.value ?? '';
  const shown = quoted(name.toLowerCase());
  const rest = tokens.slice(nameIndex + 1);
  if (rest.some((token) => token.value === '=')) {
    refuse(
      `PRAGMA ${shown} = ... is refused: connection settings are fixed by the server. Read a setting with PRAGMA ${shown} (no value).`,
    );
  }
  if (rest.length > 0 && !introspectionPragmas.has(name)) {
    refuse(`PRAGMA ${shown}(...) is refused: only schema pragmas such as table_info(name) take an argument here.`);
  }
}

/**
 * Throws a StatementError, one sentence naming the rule, when `sql` may not run in `mode`. `facts` come from the engine
 * after it prepared the statement (so the statement parses, and is exactly one statement).
 */
export function checkStatement(sql: string, facts: StatementFacts, mode: StatementMode): void {
  const tokens = sqlTokens(sql);
  const first = leadingWord(tokens);
  if (first === 'ATTACH' || first === 'DETACH') {
    refuse(`${first} is refused: the server works on its one database and never opens another file.`);
  }
  if (first === 'VACUUM' && tokens.some((token) => token.kind === 'word' && token.value === 'INTO')) {
    refuse('VACUUM INTO is refused: it writes a copy of the database to another file.');
  }
  if (first !== undefined && transactionWords.has(first)) {
    refuse(
      `${first} is refused: every call runs in its own transaction, so transaction statements have no place here.`,
    );
  }
  if (first === 'PRAGMA') checkPragma(tokens);
  tokens.forEach((token, index) => {
    // A quoted name ("load_extension") calls the same function: compare names whatever their quoting.
    const name = token.kind === 'quoted' ? token.value.toUpperCase() : token.value;
    if (
      (token.kind === 'word' || token.kind === 'quoted') &&
      refusedFunctions.has(name) &&
      tokens[index + 1]?.value === '('
    ) {
      refuse(`${name.toLowerCase()}() is refused: it reaches outside the database.`);
    }
  });
  if (mode === 'read') {
    if (!facts.readonly) {
      refuse(
        'This statement would change the database, and the query tool only reads (writes need a server started with --allow-write and the execute tool).',
      );
    }
    if (!facts.reader) {
      refuse(
        `The query tool runs statements that return rows (SELECT, WITH, VALUES, EXPLAIN, schema pragmas); ${first === undefined ? 'this statement' : quoted(first)} returns none and is refused.`,
      );
    }
  }
}

/**
 * Why a write statement needs the user's confirmation, or undefined when it does not: DROP, ALTER ... DROP,
 * TRUNCATE, and DELETE or UPDATE without a WHERE clause. A heuristic for a prompt to the user, not a safety
 * boundary: the boundary is --allow-write.
 */
export function destructiveReason(sql: string): string | undefined {
  const tokens = sqlTokens(sql, { dollarQuotes: true }).filter((token) => token.depth === 0);
  const words = tokens.filter((token) => token.kind === 'word').map((token) => token.value);
  // Skip a leading WITH clause: its bodies are inside parentheses, so the first top-level verb is the statement's.
  const verb = words.find((word) =>
    ['DELETE', 'UPDATE', 'DROP', 'ALTER', 'TRUNCATE', 'INSERT', 'REPLACE', 'SELECT', 'CREATE'].includes(word),
  );
  if (verb === 'DROP')
    return `${words
      .slice(words.indexOf('DROP'), words.indexOf('DROP') + 2)
      .map((word) => quoted(word))
      .join(' ')} deletes the object and all its data`;
  if (verb === 'TRUNCATE') return 'TRUNCATE removes every row of the table';
  if (verb === 'ALTER' && words.includes('DROP')) return 'ALTER ... DROP removes part of the table and its data';
  if ((verb === 'DELETE' || verb === 'UPDATE') && !words.includes('WHERE')) {
    return verb === 'DELETE'
      ? 'DELETE without WHERE removes every row of the table'
      : 'UPDATE without WHERE changes every row of the table';
  }
  return undefined;
}

/** Statements the PostgreSQL query tool runs: reads only, judged by their first word. */
const postgresReadStarts = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE', 'EXPLAIN', 'SHOW']);

/** PostgreSQL statements refused in every mode: they reach files, programs, settings or other sessions. */
const postgresRefusedStarts = new Map([
  ['COPY', 'COPY reads and writes files and programs on the database server'],
  ['DO', 'DO runs an anonymous code block'],
  ['LOAD', 'LOAD loads a shared library into the server'],
  ['SET', 'SET changes session settings, which the server fixes'],
  ['RESET', 'RESET changes session settings, which the server fixes'],
  ['LISTEN', 'LISTEN subscribes the pooled session to notifications'],
  ['UNLISTEN', 'UNLISTEN changes the pooled session'],
  ['NOTIFY', 'NOTIFY sends a message to other sessions'],
  ['PREPARE', 'PREPARE keeps a statement in the pooled session'],
  ['EXECUTE', 'EXECUTE runs a statement kept in the pooled session'],
  ['DEALLOCATE', 'DEALLOCATE changes the pooled session'],
  ['DISCARD', 'DISCARD changes the pooled session'],
  ['CHECKPOINT', 'CHECKPOINT is a server maintenance command'],
  ['BEGIN', 'every call runs in its own transaction'],
  ['START', 'every call runs in its own transaction'],
  ['COMMIT', 'every call runs in its own transaction'],
  ['END', 'every call runs in its own transaction'],
  ['ROLLBACK', 'every call runs in its own transaction'],
  ['ABORT', 'every call runs in its own transaction'],
  ['SAVEPOINT', 'every call runs in its own transaction'],
  ['RELEASE', 'every call runs in its own transaction'],
]);

/**
 * PostgreSQL functions refused wherever they appear: they act outside the transaction (files, other sessions,
 * locks, sequences, settings), so a READ ONLY transaction does not contain them.
 */
const postgresRefusedFunctions = [
  /^PG_(READ_FILE|READ_BINARY_FILE|LS_\w+|STAT_FILE|FILE_\w+)$/,
  /^LO_\w+$/,
  /^DBLINK\w*$/,
  /^PG_(TERMINATE_BACKEND|CANCEL_BACKEND|SIGNAL_BACKEND|RELOAD_CONF|ROTATE_LOGFILE|PROMOTE)$/,
  /^PG_(TRY_)?ADVISORY_\w+$/,
  /^(SET_CONFIG|NEXTVAL|SETVAL|PG_NOTIFY|PG_LOGICAL_EMIT_MESSAGE|PG_SWITCH_WAL|PG_CREATE_RESTORE_POINT)$/,
  /^PG_(BACKUP_START|BACKUP_STOP|START_BACKUP|STOP_BACKUP)$/,
  /^(QUERY_TO_XML|QUERY_TO_XML_AND_XMLSCHEMA|QUERY_TO_XMLSCHEMA|CURSOR_TO_XML)$/,
];

/**
 * The PostgreSQL rules, applied before a statement reaches the server. The boundary is the server's own: every
 * statement goes over the extended protocol (one statement), reads run in a READ ONLY transaction with a
 * statement_timeout, and the recommended role has only SELECT grants. These rules refuse what a read-only
 * transaction still lets through.
 */
export function checkPostgresStatement(sql: string, mode: StatementMode): void {
  const tokens = sqlTokens(sql, { dollarQuotes: true });
  const first = leadingWord(tokens);
  const semicolon = tokens.findIndex((token) => token.kind === 'punctuation' && token.value === ';');
  if (semicolon !== -1 && semicolon < tokens.length - 1) {
    refuse('The SQL holds more than one statement; send exactly one statement per call.');
  }
  if (first === undefined) refuse('The SQL is empty: send one statement.');
  if (tokens.some((token) => token.kind === 'word' && token.value === 'U&')) {
    refuse('Unicode-escaped names and strings (U&"..." or U&\'...\') are refused: write them plainly.');
  }
  const refusedStart = postgresRefusedStarts.get(first);
  if (refusedStart) refuse(`${first} is refused: ${refusedStart}.`);
  if (first === 'ALTER' && tokens[1]?.value === 'SYSTEM')
    refuse('ALTER SYSTEM is refused: it changes the server configuration.');
  tokens.forEach((token, index) => {
    if ((token.kind !== 'word' && token.kind !== 'quoted') || tokens[index + 1]?.value !== '(') return;
    const name = token.value.toUpperCase();
    if (postgresRefusedFunctions.some((pattern) => pattern.test(name))) {
      refuse(`${quoted(name.toLowerCase())}() is refused: it acts outside the transaction, even a read-only one.`);
    }
  });
  if (mode === 'read') {
    if (!postgresReadStarts.has(first)) {
      refuse(
        `The query tool runs one read statement (SELECT, WITH, VALUES, TABLE, EXPLAIN, SHOW); ${quoted(first)} is refused (writes need a server started with --allow-write and the execute tool).`,
      );
    }
    if (first === 'EXPLAIN' && tokens.some((token) => token.kind === 'word' && /^ANALY[SZ]E$/.test(token.value))) {
      refuse('EXPLAIN ANALYZE is refused in the query tool: it runs the statement; use explain_query for the plan.');
    }
    const locking = tokens.findIndex((token) => token.kind === 'word' && token.value === 'FOR');
    if (locking !== -1 && ['UPDATE', 'SHARE', 'NO', 'KEY'].includes(tokens[locking + 1]?.value ?? '')) {
      refuse('SELECT ... FOR UPDATE/SHARE is refused: it takes row locks.');
    }
  }
}
