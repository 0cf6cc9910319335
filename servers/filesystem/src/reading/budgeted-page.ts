import { decodeCursor, encodeCursor, paginate } from '@mcpkit/server-kit';

/** One page of a listing as lines, and the cursor of the rest when there is more. */
export interface BudgetedPage {
  lines: string[];
  nextCursor?: string;
}

/**
 * A page of `items` as lines: at most `pageSize` of them and, past the first, at most `budget` characters, so a page
 * of long names ends with its own cursor instead of being cut, cursor and all, by the server's safety net. The cursor
 * is the kit's offset cursor (`paginate`'s), so one made by either goes on with the other.
 */
export function budgetedPage<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
  budget: number,
  render: (item: T) => string,
): BudgetedPage {
  const page = paginate(items, cursor, pageSize); // refuses a cursor that is not an offset
  const offset = cursor === undefined ? 0 : (decodeCursor(cursor).offset as number);
  const lines: string[] = [];
  let chars = 0;
  for (const item of page.items) {
    const line = render(item);
    if (lines.length > 0 && chars + line.length + 1 > budget) break;
    lines.push(line);
    chars += line.length + 1;
  }
  const end = offset + lines.length;
  return end < items.length ? { lines, nextCursor: encodeCursor({ offset: end }) } : { lines };
}
