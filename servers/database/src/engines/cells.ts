import type { CellValue } from './engine.js';

/** Bytes of a BLOB shown, in hex, in its summary. */
const blobHeadBytes = 16;

/** A cell of a result made safe for JSON and bounded: long text is shortened, BLOBs summarised, big integers kept exact. */
export function toCell(value: unknown, cellChars: number): { cell: CellValue; shortened: boolean } {
  if (value === null || value === undefined) return { cell: null, shortened: false };
  if (typeof value === 'bigint') {
    const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
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

/** Parameters as better-sqlite3 binds them: booleans as 0/1, and `:name`/`@name`/`$name` keys without their prefix. */
export function bindable(params: unknown[] | Record<string, unknown> | undefined): unknown[] {
  if (params === undefined) return [];
  const convert = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
  if (Array.isArray(params)) return params.map(convert);
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) named[key.replace(/^[:@$]/, '')] = convert(value);
  return [named];
}
