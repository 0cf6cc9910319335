/** One step of ending a bulk load of an SQLite index, run where its writing connection lives. */
export type BulkLoadStep =
  | { command: 'defer-merging'; deferred: boolean }
  | { command: 'merge' }
  | { command: 'release' }
  | { command: 'checkpoint' };

/**
 * Ends a bulk load of an SQLite index in steps, `run` running each where the connection lives (this thread, or the
 * writing thread by message) and answering whether `merge` and `release` have more to do. Between steps the event loop
 * runs, and `keepGoing` can stop the merge (a cancelled run): later writes merge what is left.
 */
export async function endBulkLoad(
  run: (step: BulkLoadStep) => Promise<unknown>,
  keepGoing: () => boolean,
): Promise<void> {
  // With merging no longer deferred, later writes merge what a cancelled run leaves.
  await run({ command: 'defer-merging', deferred: false });
  // One step at a time (about 2,000 pages): a cancel stops the merge within a step.
  while (keepGoing() && (await run({ command: 'merge' }))) {}
  // The pages the merges freed go back in steps too (a merged index would otherwise keep a tenth of its size free).
  while (keepGoing() && (await run({ command: 'release' }))) {}
  await run({ command: 'checkpoint' });
}
