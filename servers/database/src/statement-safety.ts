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
  const rest = tokens.slice(nameIndex + 1);
  if (rest.some((token) => token.value === '=')) {
    refuse(
      `PRAGMA ${name.toLowerCase()} = ... is refused: connection settings are fixed by the server. Read a setting with PRAGMA ${name.toLowerCase()} (no value).`,
    );
  }
  if (rest.length > 0 && !introspectionPragmas.has(name)) {
    refuse(
      `PRAGMA ${name.toLowerCase()}(...) is refused: only schema pragmas such as table_info(name) take an argument here.`,
    );
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
    if (token.kind === 'word' && refusedFunctions.has(token.value) && tokens[index + 1]?.value === '(') {
      refuse(`${token.value.toLowerCase()}() is refused: it reaches outside the database.`);
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
        `The query tool runs statements that return rows (SELECT, WITH, VALUES, EXPLAIN, schema pragmas); ${first ?? 'this statement'} returns none and is refused.`,
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
    return `${words.slice(words.indexOf('DROP'), words.indexOf('DROP') + 2).join(' ')} deletes the object and all its data`;
  if (verb === 'TRUNCATE') return 'TRUNCATE removes every row of the table';
  if (verb === 'ALTER' && words.includes('DROP')) return 'ALTER ... DROP removes part of the table and its data';
  if ((verb === 'DELETE' || verb === 'UPDATE') && !words.includes('WHERE')) {
    return verb === 'DELETE'
      ? 'DELETE without WHERE removes every row of the table'
      : 'UPDATE without WHERE changes every row of the table';
  }
  return undefined;
}
