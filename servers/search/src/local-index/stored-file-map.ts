import type { StoredFile, StoredFiles } from './index-writer.js';

/** Ids handed over at a time by `rest`. */
const pageIds = 1000;

/**
 * Stored files read whole into a map (a PostgreSQL index, whose relative paths do not sort as the walk goes): met in
 * any order, and what is left after the walk is gone. Its memory grows with the files under the directory.
 */
export function storedFileMap(files: Map<string, StoredFile>): StoredFiles {
  return {
    meet(path) {
      const file = files.get(path);
      if (file) files.delete(path);
      return file;
    },
    takeGone: () => [],
    async *rest() {
      const ids = [...files.values()].map((file) => file.id);
      files.clear();
      for (let start = 0; start < ids.length; start += pageIds) yield ids.slice(start, start + pageIds);
    },
  };
}
