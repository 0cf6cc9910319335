import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Rules kept from one .gitignore; the ignore package tests every rule for every path, so more cost every file. */
export const maxRulesPerFile = 1000;
/** Rules kept from all the .gitignore files in force at one folder; deeper files beyond it are dropped. */
export const maxRulesInForce = 3000;
/** Longer lines are dropped: no real rule is this long. */
export const maxRuleLength = 512;
/** A .gitignore larger than this is not read at all. */
const maxIgnoreFileBytes = 1024 * 1024;

/** The rules of one .gitignore, with the folder they are relative to. */
export interface IgnoreFile {
  base: string;
  rules: Ignore;
  count: number;
}

/**
 * Reads a .gitignore without following a link and without blocking on a FIFO (anything but a regular file of at
 * most 1 MB counts as absent), reading from the descriptor it checked and never more than the cap.
 */
function readIgnoreText(file: string): string | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || stats.size > maxIgnoreFileBytes) return undefined;
    // One byte more than fstat said: a file that grew meanwhile fills the buffer and is treated as changing.
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let total = 0;
    for (let read = 1; read > 0 && total < buffer.length; total += read) {
      read = readSync(descriptor, buffer, total, buffer.length - total, total);
    }
    return total === buffer.length ? undefined : buffer.toString('utf8', 0, total);
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The rules of `directory`'s .gitignore, at most `room` of them (and `maxRulesPerFile`), each at most
 * `maxRuleLength` characters; `onNote` hears one sentence when some were dropped. Undefined without a .gitignore.
 */
export function readIgnoreFile(
  directory: string,
  room: number,
  onNote?: (sentence: string) => void,
): IgnoreFile | undefined {
  const file = join(directory, '.gitignore');
  const text = readIgnoreText(file);
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const short = lines.filter((line) => line.length <= maxRuleLength);
  const limit = Math.max(0, Math.min(room, maxRulesPerFile));
  const kept = short.slice(0, limit);
  const dropped = lines.length - kept.length;
  if (dropped > 0) {
    onNote?.(
      `${file}: ${dropped} of ${lines.length} rules were not applied (at most ${maxRulesPerFile} rules per file, ` +
        `${maxRulesInForce} in force at once, ${maxRuleLength} characters each), so some ignored files may be indexed.`,
    );
  }
  return { base: directory, rules: ignore().add(kept), count: kept.length };
}

/** True when the rules in force ignore `path` (a folder when `directory`); every file's rules are tested. */
export function isIgnored(stack: readonly IgnoreFile[], path: string, directory: boolean): boolean {
  for (const { base, rules } of stack) {
    const relativePath = relative(base, path).split(sep).join('/');
    if (relativePath && rules.ignores(directory ? `${relativePath}/` : relativePath)) return true;
  }
  return false;
}

/** How many rules are in force in a stack of .gitignore files. */
export function rulesInForce(stack: readonly IgnoreFile[]): number {
  return stack.reduce((sum, file) => sum + file.count, 0);
}
