// The entry for off-thread task modules (see runOffThread): only what a task needs, nothing that is slow to load,
// because every worker imports it when it starts.

export { ToolError } from './errors.js';
export type { GlobOptions } from './glob/compile-glob.js';
export { assertGlob, compileGlob } from './glob/compile-glob.js';
