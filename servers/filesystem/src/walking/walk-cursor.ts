import { decodeCursor, encodeCursor, ToolError } from '@mcpkit/server-kit';

/** Where a walk-based listing continues: after a relative path, and for grep, after a line of that file. */
export interface WalkPosition {
  after: string;
  line?: number;
}

/** The cursor that continues a walk after `position`, bound to the tool and root so it is not reused elsewhere. */
export function walkCursor(tool: string, root: string, position: WalkPosition): string {
  return encodeCursor({ tool, root, ...position });
}

/**
 * The length `walkCursor(tool, root, position)` would have, without making it: a page asks it for every entry it
 * might stop after, and making each cursor (a buffer and its base64) cost more than the entry itself. base64url
 * writes four characters per three bytes of the JSON, unpadded.
 */
export function walkCursorLength(tool: string, root: string, position: WalkPosition): number {
  return Math.ceil((Buffer.byteLength(JSON.stringify({ tool, root, ...position })) * 4) / 3);
}

/** Reads a cursor made by `walkCursor` for the same tool and root. */
export function readWalkCursor(cursor: string | undefined, tool: string, root: string): WalkPosition | undefined {
  if (cursor === undefined) return undefined;
  const state = decodeCursor(cursor);
  if (state.tool !== tool || state.root !== root || typeof state.after !== 'string') {
    throw new ToolError(
      `The cursor belongs to another call; pass the cursor ${tool} returned for this path, or omit it.`,
    );
  }
  const line = typeof state.line === 'number' && Number.isInteger(state.line) ? state.line : undefined;
  return { after: state.after, ...(line !== undefined ? { line } : {}) };
}
