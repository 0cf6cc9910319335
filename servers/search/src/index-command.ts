import { defineSubcommand, UsageError } from '@mcpkit/server-kit/cli';
import { indexFlags, indexLocation } from './index-location.js';
import type { IndexProgress, IndexReport } from './local-index/indexer.js';
import { indexBackend, loadSearchIndex } from './search-index-options.js';

/** One folder's line of a run's report on stderr. */
function reportLine(report: IndexReport): string {
  return (
    `${report.directory}: ${report.scanned} files, ${report.added} added, ${report.updated} updated, ` +
    `${report.removed} removed, ${report.unchanged} unchanged, ${report.binary} binary, ${report.durationMs} ms\n`
  );
}

/**
 * `mcpkit-search index DIR...`: builds or refreshes the index with a progress bar on stderr, then exits; with
 * `--watch` it stays and re-indexes what changes (the writer of a team's shared index).
 */
export const indexCommand = defineSubcommand({
  description:
    'Builds or refreshes the index of the directories (only changed files are read), then exits, or with --watch ' +
    'keeps it fresh. Several indexers of one --index-url take turns.',
  positionals: 'DIR [DIR...]',
  requirePositionals: true,
  flags: {
    ...indexFlags,
    watch: { type: 'boolean', description: 'Keep running and re-index what changes (Ctrl-C stops)' },
    rebuild: {
      type: 'boolean',
      description:
        'With --index-url, index everything again into new tables, swapped in at the end (readers keep answering)',
    },
  },
  async run({ values, positionals }) {
    const maxFileSize = values['max-file-size'];
    const location = await indexLocation(values, positionals, process.env);
    if (values.rebuild && !('indexUrl' in location)) {
      throw new UsageError('--rebuild rebuilds a shared index (--index-url); for an index file, delete the file.');
    }
    // The index's backend loads here (better-sqlite3 or pg, not both), as in a server once it has answered tools/list.
    const index = await loadSearchIndex(
      indexBackend({ directories: positionals, ...location, ...(maxFileSize !== undefined ? { maxFileSize } : {}) }),
    );
    const indexing = index.indexing;
    if (!indexing) throw new Error('An index opened with directories has an indexer.');
    const { createProgressBar } = await import('./progress-bar.js');
    const bar = createProgressBar(process.stderr);
    // The first SIGINT or SIGTERM stops the run, which then closes the index; the listeners go with it, so a second
    // signal, or one after the run (while the index closes), ends the process as it would without them.
    const interrupt = new AbortController();
    // The exit code of a run a signal stopped: 128 plus the signal's number, as a shell reports it.
    let stoppedExitCode = 0;
    const stop = (signal: NodeJS.Signals) => {
      stopListening();
      stoppedExitCode = signal === 'SIGTERM' ? 143 : 130;
      interrupt.abort();
    };
    const stopListening = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    try {
      const runOptions = { signal: interrupt.signal, onProgress: (progress: IndexProgress) => bar.update(progress) };
      // --rebuild comes with --index-url (checked above), so pg is loaded already.
      const { PostgresIndex } = values.rebuild ? await import('./postgres-index/postgres-index.js') : {};
      let reports: IndexReport[];
      try {
        reports =
          PostgresIndex && index instanceof PostgresIndex
            ? await index.rebuild(runOptions)
            : await indexing.refreshAll(runOptions);
      } catch (error) {
        if (!interrupt.signal.aborted) throw error;
        // Stopped by Ctrl-C or SIGTERM: said as such, not as a failure ("This operation was aborted").
        bar.done();
        process.stderr.write(
          values.rebuild
            ? 'Stopped before the end: the old tables stay in use; run the command again to rebuild.\n'
            : 'Stopped before the end: the index keeps what was stored; run the command again to finish ' +
                '(only changed files are read).\n',
        );
        process.exitCode = stoppedExitCode;
        return;
      }
      bar.done();
      if (values.rebuild) process.stderr.write('Rebuilt: the new tables replaced the old ones.\n');
      for (const report of reports) process.stderr.write(reportLine(report));
      process.stderr.write(`Index: ${index.location}\n`);
      if (values.watch && !interrupt.signal.aborted) {
        process.stderr.write('Watching for changes (Ctrl-C stops).\n');
        indexing.watch(
          (error) => process.stderr.write(`Indexing failed: ${error instanceof Error ? error.message : error}\n`),
          (report) => {
            if (report.added + report.updated + report.removed > 0) process.stderr.write(reportLine(report));
          },
        );
        await new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve()));
      }
    } finally {
      stopListening();
      await index.close();
    }
  },
});
