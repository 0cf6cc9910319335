import { z } from 'zod';

/** One value bound to a placeholder. */
const parameterValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * Values bound to one statement at most: SQLite's own limit (32,766 placeholders; PostgreSQL's is 65,535). Counted
 * before any value is checked: the check of each value runs in the server's own process, where 400,000 named values
 * held every session for 0.95-2.05 s and 1,500,000 positional ones for 0.26-0.79 s (over stdio; ADR 0202).
 */
export const parameterCount = 32_766;

const parametersMessage =
  'params must be an array (for ? or $1 placeholders) or an object (for :name placeholders) of at most 32,766 strings, numbers, booleans or nulls';

/** Named values: an object with more keys than `parameterCount` is refused after counting that many, not checked. */
const namedParameters = z.preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    let count = 0;
    for (const _key in value) {
      count += 1;
      // Not an object any more: the record refuses it at once, and the union answers with parametersMessage.
      if (count > parameterCount) return undefined;
    }
    return value;
  },
  z.record(z.string(), parameterValue),
);

/** The `params` argument of the statement tools: positional or named values, never spliced into the SQL. */
export const statementParameters = z
  .union([z.array(parameterValue).max(parameterCount), namedParameters], { error: parametersMessage })
  .optional()
  .describe(
    'Values for the placeholders: an array for ? (SQLite) or $1, $2 (PostgreSQL); an object for :name (SQLite; keys with or without the colon)',
  );

/**
 * Characters of one statement at most. The statement rules read every token of it, for PostgreSQL and for execute's
 * confirmation in the server's own process (a 9 MB statement held the event loop, and every session, for 3.1-3.7 s;
 * 100,000 characters take 22-44 ms); values belong in params, which are bound, not read (ADR 0202).
 */
export const statementChars = 100_000;

/** The `sql` argument of the statement tools. */
export const statementSql = z
  .string()
  .trim()
  .min(1)
  .max(
    statementChars,
    'The statement is longer than 100,000 characters: put values in params, or split the work into several statements',
  )
  .describe('Exactly one SQL statement; put values in params');

/** The structured form of rows, shared by query and execute. */
export const rowsOutput = {
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())).describe('Row values in column order; a BLOB is { blob: { bytes, head } }'),
  truncated: z.enum(['row_cap', 'byte_budget']).optional(),
  totalRows: z.number().optional(),
  totalRowsAtLeast: z.number().optional(),
  omittedColumns: z.number().optional().describe('Trailing columns left out to fit the size budget'),
};
