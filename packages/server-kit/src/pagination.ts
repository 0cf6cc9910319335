import { ToolError } from './errors.js';

/** Makes an opaque cursor from a small piece of state. */
export function encodeCursor(state: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** Reads a cursor made by `encodeCursor`; throws a ToolError for anything else. */
export function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    const state: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof state === 'object' && state !== null && !Array.isArray(state)) return state as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new ToolError('The cursor is not valid: pass back exactly the nextCursor of an earlier answer, or omit it.');
}

/** One page of a list, with the cursor of the next page when there is one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The page of `items` that starts at `cursor` (offset-based; for lists that change slowly). */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize: number): Page<T> {
  let offset = 0;
  if (cursor !== undefined) {
    const state = decodeCursor(cursor);
    if (typeof state.offset !== 'number' || !Number.isInteger(state.offset) || state.offset < 0) {
      throw new ToolError(
        'The cursor is not valid: pass back exactly the nextCursor of an earlier answer, or omit it.',
      );
    }
    offset = state.offset;
  }
  const end = offset + pageSize;
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = encodeCursor({ offset: end });
  return page;
}
