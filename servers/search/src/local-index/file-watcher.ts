import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { walkFolders } from './file-walker.js';

/** How the watcher reports and what it ignores. */
export interface WatchOptions {
  /** Called with the folders whose contents changed, after changes have been quiet for `quietMs`. */
  onChange(directories: string[]): void;
  /** Absolute paths whose changes are ignored (the index file and its journal). */
  ignoredPaths?: ReadonlySet<string>;
  quietMs?: number;
  onError?(error: Error): void;
  /** Per-folder watchers (the default on Linux) instead of one recursive watcher per directory. */
  perFolder?: boolean;
}

/** Above this many changed folders in one burst, the whole directory is rescanned instead. */
const maxFoldersPerBurst = 32;
/** Per-folder watching stops adding folders past this many, to stay inside the system's inotify limit. */
const maxWatchedFolders = 8192;

/** Path segments whose changes never matter to the index. */
const ignoredSegment = /(^|[\\/])(\.git|node_modules)([\\/]|$)/;

/**
 * Watches directories and reports, debounced, which folders changed; the indexer then rescans just those folders
 * (which also catches renames, deletions and .gitignore edits without tracking each event's meaning).
 *
 * On Linux, Node 20's recursive `fs.watch` puts an inotify watch on every file and walks the tree synchronously, so
 * there the watcher puts one non-recursive watch on each folder the index looks into instead (skipping ignored
 * folders such as node_modules), and adds folders as they appear. Elsewhere the native recursive watch is used.
 */
export function watchDirectories(roots: readonly string[], options: WatchOptions): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  const pending = new Map<string, Set<string>>();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let warnedLimit = false;

  const flush = () => {
    timer = undefined;
    const folders: string[] = [];
    for (const [root, changed] of pending) {
      if (changed.size > maxFoldersPerBurst) {
        folders.push(root);
        continue;
      }
      // A folder whose ancestor is also listed is covered by the ancestor's rescan.
      for (const folder of [...changed].sort()) {
        if (!folders.some((kept) => folder === kept || folder.startsWith(kept + sep))) folders.push(folder);
      }
    }
    pending.clear();
    if (folders.length > 0) options.onChange(folders);
  };

  const record = (root: string, folder: string) => {
    const folders = pending.get(root) ?? new Set<string>();
    folders.add(folder.length < root.length ? root : folder);
    pending.set(root, folders);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, options.quietMs ?? 300);
  };

  const watchFolder = (root: string, folder: string) => {
    if (controller.signal.aborted || watchers.has(folder)) return;
    if (watchers.size >= maxWatchedFolders) {
      if (!warnedLimit) options.onError?.(new Error(`Watching only the first ${maxWatchedFolders} folders.`));
      warnedLimit = true;
      return;
    }
    try {
      const watcher = watch(folder, (_event, filename) => {
        const path = filename ? join(folder, filename.toString()) : folder;
        if (ignoredSegment.test(path.slice(root.length)) || options.ignoredPaths?.has(path)) return;
        record(root, folder);
        if (filename) addNewFolders(root, path);
      });
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(folder);
      });
      watchers.set(folder, watcher);
    } catch {
      // The folder vanished or cannot be watched; its parent's rescan still sees what happened.
    }
  };

  const addNewFolders = (root: string, path: string) => {
    stat(path)
      .then(async (info) => {
        if (!info.isDirectory()) return;
        for await (const folder of walkFolders(root, path, controller.signal)) watchFolder(root, folder);
      })
      .catch(() => {
        // Gone again, or the watcher closed: nothing to add.
        const existing = watchers.get(path);
        existing?.close();
        watchers.delete(path);
      });
  };

  for (const root of roots) {
    if (options.perFolder ?? process.platform === 'linux') {
      (async () => {
        for await (const folder of walkFolders(root, root, controller.signal)) watchFolder(root, folder);
      })().catch(() => {});
      continue;
    }
    const watcher = watch(root, { recursive: true }, (_event, filename) => {
      if (filename === null) return record(root, root);
      const name = filename.toString();
      const path = join(root, name);
      if (ignoredSegment.test(name) || options.ignoredPaths?.has(path)) return;
      record(root, dirname(path));
    });
    watcher.on('error', (error) => options.onError?.(error));
    watchers.set(root, watcher);
  }

  return {
    close() {
      controller.abort();
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
