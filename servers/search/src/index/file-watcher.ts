import { type FSWatcher, watch } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** How the watcher reports and what it ignores. */
export interface WatchOptions {
  /** Called with the folders whose contents changed, after changes have been quiet for `quietMs`. */
  onChange(directories: string[]): void;
  /** Absolute paths whose changes are ignored (the index file and its journal). */
  ignoredPaths?: ReadonlySet<string>;
  quietMs?: number;
  onError?(error: Error): void;
}

/** Above this many changed folders in one burst, the whole directory is rescanned instead. */
const maxFoldersPerBurst = 32;

/** Path segments whose changes never matter to the index. */
const ignoredSegment = /(^|[\\/])(\.git|node_modules)([\\/]|$)/;

/**
 * Watches directories recursively and reports, debounced, which folders changed; the indexer then rescans just those
 * folders (which also catches renames, deletions and .gitignore edits without tracking each event's meaning).
 */
export function watchDirectories(roots: readonly string[], options: WatchOptions): { close(): void } {
  const watchers: FSWatcher[] = [];
  const pending = new Map<string, Set<string>>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const folders: string[] = [];
    for (const [root, changed] of pending) {
      if (changed.size > maxFoldersPerBurst) {
        folders.push(root);
        continue;
      }
      // A folder whose ancestor is also listed is covered by the ancestor's rescan.
      const sorted = [...changed].sort();
      for (const folder of sorted) {
        if (!folders.some((kept) => folder === kept || folder.startsWith(kept + sep))) folders.push(folder);
      }
    }
    pending.clear();
    if (folders.length > 0) options.onChange(folders);
  };
  for (const root of roots) {
    const watcher = watch(root, { recursive: true }, (_event, filename) => {
      if (filename === null) {
        pending.set(root, new Set([root]));
      } else {
        const name = filename.toString();
        const path = join(root, name);
        if (ignoredSegment.test(name) || options.ignoredPaths?.has(path)) return;
        const folders = pending.get(root) ?? new Set<string>();
        folders.add(dirname(path).length < root.length ? root : dirname(path));
        pending.set(root, folders);
      }
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, options.quietMs ?? 300);
    });
    watcher.on('error', (error) => options.onError?.(error));
    watchers.push(watcher);
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
