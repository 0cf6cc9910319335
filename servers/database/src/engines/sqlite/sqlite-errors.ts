import { quoted } from '../../error-text.js';

/** Finds the offset of the token SQLite's syntax error names; undefined when it cannot tell. */
export type ErrorLocator = (fragment: string) => number | undefined;

/** The 1-based line and column of an offset in `sql`. */
function positionOf(sql: string, offset: number | undefined): { line: number; column: number } | undefined {
  if (offset === undefined || offset < 0) return undefined;
  const before = sql.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Turns an error of better-sqlite3 into one sentence for the model: what went wrong, where when SQLite says, and
 * what to do next. SQLite's own message is always kept, in parentheses, so nothing is lost in the rewording; a
 * message or a name longer than 500 characters keeps its head and says how much more there was (error-text.ts).
 */
export function describeSqliteError(error: unknown, sql: string, locate?: ErrorLocator): string {
  const full = error instanceof Error ? error.message : String(error);
  // SQLite's message can quote a value of any size (a JSON path built with printf, a huge token): it is shortened.
  const message = quoted(full);
  const code = (error as { code?: unknown }).code;
  const table = /^no such table: (.+)$/.exec(full);
  if (table) {
    return `The table "${quoted(table[1] as string)}" does not exist (SQLite: ${message}). Call list_tables to see the tables there are.`;
  }
  const column = /^no such column: (.+)$/.exec(full);
  if (column) {
    return `The column "${quoted(column[1] as string)}" does not exist (SQLite: ${message}). Call describe_table to see a table's columns.`;
  }
  const near = /near "((?:[^"]|"")*)": syntax error/.exec(full);
  if (near) {
    const fragment = (near[1] as string).replaceAll('""', '"');
    const position = positionOf(sql, locate ? locate(fragment) : sql.indexOf(fragment));
    const where = position ? ` at line ${position.line}, column ${position.column}` : '';
    return `The SQL has a syntax error near "${quoted(near[1] as string)}"${where} (SQLite: ${message}).`;
  }
  if (message.includes('more than one statement')) {
    return 'The SQL holds more than one statement; send exactly one statement per call.';
  }
  if (message.includes('contains no statements')) return 'The SQL is empty: send one statement.';
  if (message === 'incomplete input')
    return 'The SQL ends too early (SQLite: incomplete input): complete the statement.';
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_READONLY_DIRECTORY') {
    return `The database is read-only, so the statement was not run (SQLite: ${message}).`;
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return `The database is busy (another connection holds a lock); try again in a moment (SQLite: ${message}).`;
  }
  if (message.includes('parameter') || message.includes('bind')) {
    return `The parameters do not fit the statement: ${message}. Pass params as an array for ? placeholders or an object for :name placeholders.`;
  }
  return `SQLite refused the statement: ${message}${typeof code === 'string' ? ` (${code})` : ''}.`;
}
