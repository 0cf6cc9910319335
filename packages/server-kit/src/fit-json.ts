/** A JSON object cut to a size: the value, its serialized length, and what was cut, in words a model can read. */
export interface FittedJson {
  value: Record<string, unknown>;
  size: number;
  /** One entry per cut, e.g. `rows: kept 12 of 5,000 items`. */
  cuts: string[];
}

const count = (value: number) => value.toLocaleString('en-US');

/** Characters that JSON escapes (and lone surrogates, which well-formed JSON.stringify escapes too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON escapes.
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The serialized length of a string, without serializing it when nothing in it needs escaping. */
function quotedLength(value: string): number {
  return needsEscape.test(value) ? JSON.stringify(value).length : value.length + 2;
}

/** The value JSON.stringify writes for `value`: toJSON applied, and undefined for what it leaves out. */
function jsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(): unknown }).toJSON();
  }
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  return value;
}

/** The entries JSON.stringify writes for an object. */
function jsonEntries(value: object): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const written = jsonValue(item);
    if (written !== undefined) entries.push([key, written]);
  }
  return entries;
}

/**
 * The serialized length of `value` when it is at most `cap`; otherwise some number above `cap`. It stops reading once
 * past the cap, so measuring a huge value against a small budget costs about the budget, not the value.
 */
export function jsonLength(value: unknown, cap = Number.POSITIVE_INFINITY): number {
  const written = jsonValue(value);
  if (typeof written === 'string') return written.length + 2 > cap ? written.length + 2 : quotedLength(written);
  if (written === null || written === undefined || typeof written !== 'object') {
    return typeof written === 'number' && !Number.isFinite(written) ? 4 : (JSON.stringify(written)?.length ?? 4);
  }
  let size = 1;
  if (Array.isArray(written)) {
    for (const item of written) {
      size += 1 + (jsonValue(item) === undefined ? 4 : jsonLength(item, cap - size));
      if (size > cap) return size;
    }
  } else {
    for (const [key, item] of jsonEntries(written)) {
      size += 1 + quotedLength(key) + 1 + jsonLength(item, cap - size);
      if (size > cap) return size;
    }
  }
  return size === 1 ? 2 : size;
}

/** The least a cut can keep of `value`: every object key, with arrays and strings emptied. */
function skeletonLength(value: unknown): number {
  const written = jsonValue(value);
  if (typeof written === 'string' || Array.isArray(written)) return 2;
  if (written === null || written === undefined || typeof written !== 'object') return jsonLength(written);
  let size = 1;
  for (const [key, item] of jsonEntries(written)) size += 1 + quotedLength(key) + 1 + skeletonLength(item);
  return size === 1 ? 2 : size;
}

function cutString(value: string, allowance: number): { value: string; size: number } {
  let end = Math.min(value.length, allowance - 2);
  for (;;) {
    if (end > 0) {
      const code = value.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end -= 1; // never split a surrogate pair
    }
    const kept = value.slice(0, Math.max(end, 0));
    const size = quotedLength(kept);
    if (size <= allowance) return { value: kept, size };
    end -= size - allowance; // escapes made it longer: take the overshoot off and measure again
  }
}

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** Cuts `value` to at most `allowance` serialized characters; `allowance` is never below its skeleton. */
function shrink(value: unknown, allowance: number, path: string, cuts: string[]): { value: unknown; size: number } {
  const written = jsonValue(value);
  const full = jsonLength(written, allowance);
  if (full <= allowance || written === null || typeof written !== 'object') {
    if (typeof written !== 'string' || full <= allowance) return { value: written, size: full };
    const cut = cutString(written, allowance);
    cuts.push(`${path || 'value'}: kept ${count(cut.value.length)} of ${count(written.length)} characters`);
    return cut;
  }
  if (Array.isArray(written)) {
    const kept: unknown[] = [];
    let size = 2;
    for (const raw of written) {
      const item = jsonValue(raw) ?? null;
      const separator = kept.length > 0 ? 1 : 0;
      const left = allowance - size - separator;
      const itemLength = jsonLength(item, left);
      if (itemLength <= left) {
        kept.push(item);
        size += separator + itemLength;
        continue;
      }
      // The first item that does not fit whole is kept cut when there is room for it, so one huge row still shows.
      const skeleton = skeletonLength(item);
      if (skeleton <= left && (kept.length === 0 || left - skeleton >= 64)) {
        const cut = shrink(item, left, pathOf(path, kept.length), cuts);
        kept.push(cut.value);
        size += separator + cut.size;
      }
      break;
    }
    if (kept.length < written.length) {
      cuts.push(`${path || 'value'}: kept ${count(kept.length)} of ${count(written.length)} items`);
    }
    return { value: kept, size };
  }
  // An object keeps every key (a schema may require any of them); the room above their skeletons is shared fairly,
  // so that small fields stay whole and one large field does not starve the keys after it.
  const entries = jsonEntries(written);
  const skeletons = entries.map(([, item]) => skeletonLength(item));
  const skeleton = skeletonLength(written);
  let extra = allowance - skeleton;
  const wants = entries.map(
    ([, item], index) => jsonLength(item, (skeletons[index] ?? 0) + extra) - (skeletons[index] ?? 0),
  );
  const gives = new Array<number>(entries.length).fill(0);
  const byWant = wants.map((_, index) => index).sort((a, b) => (wants[a] ?? 0) - (wants[b] ?? 0));
  byWant.forEach((index, position) => {
    const give = Math.min(wants[index] ?? 0, Math.floor(extra / (byWant.length - position)));
    gives[index] = give;
    extra -= give;
  });
  let size = skeleton;
  const object: Record<string, unknown> = {};
  entries.forEach(([key, item], index) => {
    const own = skeletons[index] ?? 0;
    const cut = shrink(item, own + (gives[index] ?? 0), pathOf(path, key), cuts);
    object[key] = cut.value;
    size += cut.size - own;
  });
  return { value: object, size };
}

/**
 * Cuts a JSON object to at most `limit` serialized characters, keeping its shape: every key of every object stays,
 * arrays keep their first items, and long strings keep their start. Undefined when even the shape does not fit.
 * The cost grows with the limit and the number of keys, not with the length of the arrays and strings cut.
 */
export function fitJson(value: Record<string, unknown>, limit: number): FittedJson | undefined {
  if (skeletonLength(value) > limit) return undefined;
  const cuts: string[] = [];
  const fitted = shrink(value, limit, '', cuts);
  return { value: fitted.value as Record<string, unknown>, size: fitted.size, cuts };
}
