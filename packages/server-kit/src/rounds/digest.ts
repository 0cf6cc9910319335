import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so that equal values give equal text whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

/** A short SHA-256 digest (128 bits, base64url) of a JSON value, independent of key order. */
export function digest(value: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(value) ?? 'undefined')
    .digest('base64url')
    .slice(0, 22);
}
