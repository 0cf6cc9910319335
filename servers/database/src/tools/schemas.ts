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

/** The `sql` argument of the statement tools. */
export const statementSql = z.string().trim().min(1).describe('Exactly one SQL statement; put values in params');

/** The structured form of rows, shared by query and execute. */
export const rowsOutput = {
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())).describe('Row values in column order; a BLOB is { blob: { bytes, head } }'),
  truncated: z.enum(['row_cap', 'byte_budget']).optional(),
  totalRows: z.number().optional(),
  totalRowsAtLeast: z.number().optional(),
  omittedColumns: z.number().optional().describe('Trailing columns left out to fit the size budget'),
};
