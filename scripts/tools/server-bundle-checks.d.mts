/** One `new URL('./file.js', import.meta.url)` of a package's sources or bundle, and whether its file is in dist/. */
export interface FileReference {
  source: string;
  target: string;
  exists: boolean;
}

/** The messages a bundle test sends a server over stdio: the 2025-11-25 handshake, then tools/list as request 2. */
export const toolsListHandshake: { id?: number; method: string; params?: Record<string, unknown> }[];
/** The source files (relative to the package: `src/server.ts`) bundled into `files`, read from their source maps. */
export function bundledSources(packageRoot: string, files: string[]): string[];
/** Every `new URL('./file.js', import.meta.url)` of the package's sources (tests aside) and bundle. */
export function fileReferences(packageRoot: string): FileReference[];
/** The files of `packageRoot/dist/` among the module URLs a run loaded. */
export function distFiles(packageRoot: string, moduleUrls: string[]): string[];
/** Code for `modulesLoadedAnswering`'s `preload` that marks the answer to request `id` on stderr. */
export function answerMarker(id: number): string;
/** The module URLs logged on `stderr` before the server wrote its answer to the request `id`. */
export function modulesLoadedBefore(stderr: string, id: number): string[];
/** What keeps `packageRoot/dist/`'s JavaScript from being ASCII without doc comments, one sentence per file. */
export function bundleTextProblems(packageRoot: string): string[];
