import { z } from 'zod';

/** One value bound to a placeholder. */
const parameterValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The `params` argument of the statement tools: positional or named values, never spliced into the SQL. */
export const statementParameters = z
  .union([z.array(parameterValue), z.record(z.string(), parameterValue)])
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
