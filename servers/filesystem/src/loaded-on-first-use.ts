// What the tools do, as opposed to what they are: loaded by the first call that needs it, so that a start-up loads
// only the tool definitions (names, schemas, descriptions) before answering tools/list.

/**
 * `load`, once: kept while it loads and once it has; forgotten when it fails (a file that could not be read for want
 * of descriptors, say), so that a later call tries again instead of failing for the process's life. Trying again
 * helps for the file the `import()` names; under Node 20 a chunk it imports statically that failed stays failed
 * (the kit's ADR 0020).
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}

/** The walks (directory_tree, search_files, grep): the walker, ignore rules, name globs, time slices, cursors. */
export const walking = once(async () => {
  const [walk, ignoreRules, namePatterns, timeSlice, walkCursor] = await Promise.all([
    import('./walking/walk.js'),
    import('./walking/ignore-rules.js'),
    import('./walking/name-patterns.js'),
    import('./walking/time-slice.js'),
    import('./walking/walk-cursor.js'),
  ]);
  return { ...walk, ...ignoreRules, ...namePatterns, ...timeSlice, ...walkCursor };
});

/** Reading files and listing directories: line windows, bounded reads, media types, sizes, listings. */
export const reading = once(async () => {
  const [textLines, boundedRead, mimeTypes, formatSize, directoryListing, budgetedPage] = await Promise.all([
    import('./reading/text-lines.js'),
    import('./reading/bounded-read.js'),
    import('./reading/mime-types.js'),
    import('./reading/format-size.js'),
    import('./walking/directory-listing.js'),
    import('./reading/budgeted-page.js'),
  ]);
  return { ...textLines, ...boundedRead, ...mimeTypes, ...formatSize, ...directoryListing, ...budgetedPage };
});

/** Writing: the atomic write (the edits themselves, with their layout, run in the workers' edit task). */
export const editing = once(async () => import('./editing/atomic-write.js'));

/** grep's own parts: the pattern compiler (the regular expression engine, the largest module) and the report. */
export const contentSearch = once(async () => {
  const [search, report] = await Promise.all([
    import('./content-search/content-search.js'),
    import('./content-search/grep-report.js'),
  ]);
  return { ...search, ...report };
});
