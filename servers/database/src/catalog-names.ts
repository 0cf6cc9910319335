import type { DatabaseEngine, TableDescription } from './engines/engine.js';
import { quoted } from './error-text.js';

/**
 * How list_tables, describe_table and the table resources show a name from the catalog. SQLite has no limit on the
 * length of a name, so a hostile file's table can be named with 300,000 characters: written whole, one name took the
 * whole result budget and the kit's cut took the page's cursor with it (ADR 0202).
 */

/** Characters of a name from the catalog shown whole; a longer one is shown by its head and how many more. */
export const catalogNameChars = 1000;

/** The mark a shortened name ends with (the form of `quoted` in error-text.ts). */
const shortenedMark = /\.\.\. \[[\d,]+ more characters\]$/;

/** `name` when it is at most `catalogNameChars` characters, else its head and how many characters more. */
export function shownName(name: string): string {
  return quoted(name, catalogNameChars);
}

/** Control characters and line separators: a name holding one is shown quoted, so it cannot start a line of its own. */
const breaksALine = /[\p{Cc}\u2028\u2029]/u;

/** `text` as it is, or as a JSON string when it holds a line break or another control character. */
export function withinItsLine(text: string): string {
  return breaksALine.test(text) ? JSON.stringify(text) : text;
}

/**
 * A name from the catalog as the text shows it: shortened when long, and as a JSON string when it holds a line break
 * or another control character (a hostile file's table named "x\n- admin_passwords (table, 3 rows)" would otherwise
 * add a line).
 */
export function catalogNameText(name: string): string {
  return withinItsLine(shownName(name));
}

/**
 * The description of the table `name` stands for: when `name` is a shortened name as list_tables and the resource list
 * show it, the one table whose name is shown so; else the table of that name. Two tables whose names share the head
 * and the length are shown alike, and neither is found by it (the query tool reaches both).
 */
export async function describeShownTable(
  engine: DatabaseEngine,
  name: string,
  signal: AbortSignal,
): Promise<TableDescription | undefined> {
  // A name in the shortened form is first the name of the table shown so: a table whose own name is that text (or the
  // same text in another case, which SQLite's lookup also finds) is shown shortened itself, so it is never what the
  // model read, and finding it first would describe a decoy instead.
  if (name.length > catalogNameChars && shortenedMark.test(name)) {
    const matches = (await engine.listTables(signal)).filter(
      (table) => shownName(table.name) === name || `${shownName(table.schema)}.${shownName(table.name)}` === name,
    );
    const [match] = matches;
    if (matches.length > 1) return undefined;
    if (match !== undefined) {
      return engine.describeTable(engine.dialect === 'postgres' ? `${match.schema}.${match.name}` : match.name, signal);
    }
  }
  return engine.describeTable(name, signal);
}
