import type { CellValue } from './engine.js';

/** Bytes of a BLOB shown, in hex, in its summary. */
const blobHeadBytes = 16;

const largestSafe = BigInt(Number.MAX_SAFE_INTEGER);
const smallestSafe = BigInt(Number.MIN_SAFE_INTEGER);

/** A cell of a result made safe for JSON and bounded: long text is shortened, BLOBs summarised, big integers kept exact. */
export function toCell(value: unknown, cellChars: number): { cell: CellValue; shortened: boolean } {
  if (value === null || value === undefined) return { cell: null, shortened: false };
  if (typeof value === 'bigint') {
    const safe = value <= largestSafe && value >= smallestSafe;
    return { cell: safe ? Number(value) : value.toString(), shortened: false };
  }
  if (typeof value === 'number' || typeof value === 'boolean') return { cell: value, shortened: false };
  if (typeof value === 'string') {
    if (value.length <= cellChars) return { cell: value, shortened: false };
    return {
      cell: `${value.slice(0, cellChars)}… [${(value.length - cellChars).toLocaleString('en-US')} more characters]`,
      shortened: true,
    };
  }
  if (value instanceof Date)
    return { cell: Number.isNaN(value.getTime()) ? String(value) : value.toISOString(), shortened: false };
  if (value instanceof Uint8Array) {
    const head = Buffer.from(value.buffer, value.byteOffset, Math.min(value.byteLength, blobHeadBytes)).toString('hex');
    return { cell: { blob: { bytes: value.byteLength, head } }, shortened: false };
  }
  const serialised = JSON.stringify(value) ?? String(value);
  return toCell(serialised, cellChars);
}

/** The JSON length of a number, exact for integers, a typical 17 characters for other numbers (no formatting). */
function numberLength(value: number): number {
  if (!Number.isInteger(value) || Math.abs(value) >= 1e16) return 17;
  let length = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest /= 10) length += 1;
  return length;
}

/** 2^53: from here on a double may be an integer that lost digits on its way from a 64-bit integer. */
const unsafeFrom = 2 ** 53;

/**
 * Converts the raw values of one row to cells in place (the row array is the result's row, no copy) and returns the
 * row's JSON length, estimated without serializing: exact for integers, null and text without characters to escape,
 * 17 characters for other numbers. The renderer holds the result to its exact budget; this bounds what is collected.
 * With `integersExact` false (integers were read as doubles, not BigInts), a number at or past 2^53 may have lost
 * digits: the row is left as it is and -1 returned, so that the caller reads the rows again with exact integers.
 */
export function toCellsInPlace(
  row: unknown[],
  cellChars: number,
  onShortened: () => void,
  integersExact: boolean,
): number {
  let length = row.length + 1;
  for (let index = 0; index < row.length; index += 1) {
    const value = row[index];
    if (typeof value === 'string' && value.length <= cellChars) {
      length += value.length + 2;
      continue;
    }
    if (typeof value === 'number') {
      if (!integersExact && (value >= unsafeFrom || value <= -unsafeFrom)) return -1;
      length += numberLength(value);
      continue;
    }
    if (value === null || value === undefined) {
      row[index] = null;
      length += 4;
      continue;
    }
    const { cell, shortened } = toCell(value, cellChars);
    if (shortened) onShortened();
    row[index] = cell;
    length += typeof cell === 'number' ? numberLength(cell) : JSON.stringify(cell).length;
  }
  return length;
}

/** Parameters as better-sqlite3 binds them: booleans as 0/1, and `:name`/`@name`/`$name` keys without their prefix. */
export function bindable(params: unknown[] | Record<string, unknown> | undefined): unknown[] {
  if (params === undefined) return [];
  const convert = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
  if (Array.isArray(params)) return params.map(convert);
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) named[key.replace(/^[:@$]/, '')] = convert(value);
  return [named];
}
