import { readFileSync } from 'node:fs';

/** How often a busy worker's resident memory is read: fast enough that a runaway value overshoots by little. */
export const memoryCheckMs = 20;

/**
 * Resident anonymous memory in MiB from the text of /proc/<pid>/status: what a runaway value takes (SQLite's heap,
 * V8's), not the pages of the database file a query maps and reads (they count in VmRSS, and a scan of a file larger
 * than the limit must not look like a runaway value; see ADR 0204). VmRSS where the kernel has no RssAnon (before 4.5).
 */
export function anonymousMegabytes(status: string): number | undefined {
  const match = /^RssAnon:\s+(\d+) kB/m.exec(status) ?? /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
}

/**
 * The resident anonymous memory of a process in MiB, read from /proc (Linux); undefined where /proc is not there or
 * the process is gone, in which case only the worker's V8 heap limit bounds it.
 */
export function residentMegabytes(pid: number): number | undefined {
  try {
    return anonymousMegabytes(readFileSync(`/proc/${pid}/status`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** The sentence a statement stopped for its memory gets: what happened and how to ask for less. */
export function tooLargeMessage(memoryMb: number): string {
  return `The statement needed more than the ${memoryMb.toLocaleString('en-US')} MB of memory a query may use (a huge value, for example from randomblob, zeroblob, replace or group_concat over many rows), so it was stopped; ask for less, such as length() or substr() of a large value, or fewer rows in an aggregate.`;
}
