import type { SpawnOptions } from 'node:child_process';
/** Runs `command` with `args`, stdin closed, and resolves with its exit code and its stdout and stderr together. */
export declare function runToEnd(
  command: string,
  args: string[],
  options?: SpawnOptions,
): Promise<{ code: number | null; output: string }>;
