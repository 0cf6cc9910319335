import { ToolError } from '@mcpkit/server-kit';
import { sqlTokens } from '../../sql-words.js';
import { toCell } from '../cells.js';
import type { CellValue, QueryResult, StatementParameters } from '../engine.js';

/** Statements that can be wrapped as a subquery, so the server stops at the row cap instead of sending every row. */
export const wrappable = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);

/** The parameters as PostgreSQL binds them: positional only. */
export function positional(params: StatementParameters | undefined): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) {
    throw new ToolError('PostgreSQL takes positional placeholders ($1, $2, ...): pass params as an array.');
  }
  return params;
}

/** The statement without a final semicolon, so that it fits inside parentheses. */
export function statementBody(sql: string): string {
  const tokens = sqlTokens(sql, { dollarQuotes: true });
  const last = tokens.at(-1);
  return last?.kind === 'punctuation' && last.value === ';' ? sql.slice(0, last.offset) : sql;
}

/** One line per plan node of EXPLAIN (FORMAT JSON), indented by depth. */
export function planLines(node: Record<string, unknown>, depth = 0): string[] {
  const parts = [String(node['Node Type'])];
  if (node['Index Name']) parts.push(`using ${node['Index Name']}`);
  if (node['Relation Name']) parts.push(`on ${node.Schema ? `${node.Schema}.` : ''}${node['Relation Name']}`);
  const cost = `(cost=${node['Startup Cost']}..${node['Total Cost']} rows=${node['Plan Rows']})`;
  const condition = ['Index Cond', 'Filter', 'Hash Cond', 'Join Filter'].map((key) => node[key]).find(Boolean);
  const line = `${'  '.repeat(depth)}${parts.join(' ')} ${cost}${condition ? ` ${condition}` : ''}`;
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [line, ...children.flatMap((child) => planLines(child, depth + 1))];
}

/** Converts and caps rows already fetched: the row cap, then the byte budget; long text shortened, bytea summarised. */
export function capRows(rows: unknown[][], maxRows: number, cellChars: number, byteBudget: number) {
  const kept: CellValue[][] = [];
  let bytes = 0;
  let shortenedCells = 0;
  let truncated: QueryResult['truncated'];
  for (const raw of rows) {
    if (kept.length >= maxRows) {
      truncated = 'row_cap';
      break;
    }
    const row = raw.map((value) => {
      const { cell, shortened } = toCell(value, cellChars);
      if (shortened) shortenedCells += 1;
      return cell;
    });
    bytes += JSON.stringify(row).length + 1;
    if (bytes > byteBudget && kept.length > 0) {
      truncated = 'byte_budget';
      break;
    }
    kept.push(row);
  }
  return { kept, shortenedCells, truncated };
}
