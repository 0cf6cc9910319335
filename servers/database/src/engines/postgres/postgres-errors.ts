import { quoted } from '../../error-text.js';

/** The parts of a PostgreSQL URL that are safe to show: never the password. */
export function describeTarget(url: string): {
  label: string;
  host: string;
  database: string;
  user: string;
  password: string;
} {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The PostgreSQL URL is not valid; write it as postgres://user:password@host:5432/database.');
  }
  const host = `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username);
  const user = decodeURIComponent(parsed.username);
  return {
    label: `postgres://${user ? `${user}@` : ''}${host}/${database}`,
    host,
    database,
    user,
    password: decodeURIComponent(parsed.password),
  };
}

/** Removes the password from a message, in case a driver or server ever echoes it. */
export function redact(message: string, password: string): string {
  return password ? message.replaceAll(password, '***') : message;
}

/**
 * Turns a connection failure into one sentence: refused, unknown host, failed login, missing database. It names
 * the host, database and user, never the password.
 */
export function describeConnectionError(error: unknown, target: ReturnType<typeof describeTarget>): string | undefined {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED')
    return `Cannot connect to PostgreSQL at ${target.host}: the connection was refused (is the server running there?).`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `Cannot connect to PostgreSQL: the host of ${target.host} was not found.`;
  if (code === 'ETIMEDOUT' || /timeout/i.test(message))
    return `Cannot connect to PostgreSQL at ${target.host}: the connection timed out.`;
  if (code === '28P01' || code === '28000') {
    return `PostgreSQL at ${target.host} refused the login of user "${target.user}": ${redact(message, target.password)}.`;
  }
  if (code === '3D000') return `The database "${target.database}" does not exist on ${target.host}.`;
  return undefined;
}

/** Turns a PostgreSQL error into one sentence for the model, with the position when the server gives it. */
export function describePostgresError(error: unknown, sql: string, password: string): string {
  const { code, position, hint } = error as { code?: string; position?: string; hint?: string };
  // The server's message can quote a value of any size ("invalid input syntax for type integer: ..."): shortened.
  const message = quoted(redact(error instanceof Error ? error.message : String(error), password));
  let where = '';
  if (position !== undefined && sql) {
    const offset = Number(position) - 1;
    const before = sql.slice(0, offset);
    where = ` at line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
  }
  const table = /^relation "(.+)" does not exist$/.exec(message);
  if (code === '42P01' && table) {
    return `The table "${table[1]}" does not exist${where} (PostgreSQL: ${message}). Call list_tables to see the tables there are.`;
  }
  if (code === '42703') return `${message}${where}. Call describe_table to see a table's columns.`;
  if (code === '42601') return `The SQL has a syntax error${where} (PostgreSQL: ${message}).`;
  if (code === '25006')
    return `The statement would change the database, and this server only reads (PostgreSQL: ${message}).`;
  if (code === '42501') return `The database role may not do this (PostgreSQL: ${message}).`;
  if (code === '42P05' || message.includes('cannot insert multiple commands')) {
    return 'The SQL holds more than one statement; send exactly one statement per call.';
  }
  return `PostgreSQL refused the statement${where}: ${message}${hint ? ` (hint: ${quoted(hint)})` : ''}${code ? ` [${code}]` : ''}.`;
}
