import type { WorkerPool } from '@mcpkit/server-kit';
import type { PathGuard } from './confinement/path-guard.js';

/** The caps every tool works within; each cut result says how to get more. */
export interface FilesystemLimits {
  /** Characters of file text one read returns. */
  readBudget: number;
  /** Bytes of a media file returned as base64. */
  mediaBytes: number;
  /** Entries of one list_directory page. */
  pageSize: number;
  /** Entries of one directory_tree page. */
  treeEntries: number;
  /** Paths of one search_files page. */
  searchResults: number;
  /** Matching lines of one grep page. */
  grepMatches: number;
  /** Files larger than this are skipped by grep (and named in the note). */
  grepFileBytes: number;
  /** Milliseconds one walk may take before it returns what it has, with a cursor. */
  walkTimeMs: number;
}

/** The caps used when the server is not told otherwise. */
export const defaultLimits: FilesystemLimits = {
  readBudget: 100_000,
  mediaBytes: 10 * 1024 * 1024,
  pageSize: 1_000,
  treeEntries: 2_000,
  searchResults: 1_000,
  grepMatches: 300,
  grepFileBytes: 8 * 1024 * 1024,
  walkTimeMs: 30_000,
};

/** What every tool factory receives. */
export interface ToolDependencies {
  guard: PathGuard;
  limits: FilesystemLimits;
  /** The server's worker threads for heavy steps on untrusted input (grep's reading and matching, diffs). */
  workers: WorkerPool;
}
