import * as path from 'node:path';

// The two primitives of the confinement in paths.ts, kept free of imports so grep's worker threads load them fast.

/** Bytes of a path the system accepts, its final NUL included (Linux's PATH_MAX); a longer path names nothing. */
export const maxPathBytes = 4_096;

/** On Linux, `/proc/self/fd/N` names what a descriptor really refers to, which closes check-then-use races. */
export const descriptorPaths = process.platform === 'linux';

/** True when `candidate` is `directory` or lies under it, compared by whole path components, never by prefix. */
export function isInside(directory: string, candidate: string): boolean {
  const relative = path.relative(directory, candidate);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}
