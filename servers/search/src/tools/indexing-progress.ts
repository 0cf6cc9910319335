import type { ToolContext } from '@mcpkit/server-kit';
import type { IndexProgress } from '../local-index/indexer.js';
import type { SearchIndex } from '../search-index.js';

/** How often a call waiting for the first indexing run looks at its progress. */
const pollMs = 250;

/** Sends one indexing state as a progress notification (sent only when the call carries a progress token). */
export function reportIndexProgress(progress: ToolContext['progress'], state: IndexProgress): void {
  if (state.phase === 'indexing' && state.total !== undefined) {
    progress(state.done, state.total, `Indexed ${state.done} of ${state.total} changed files`).catch(() => {});
  } else if (state.phase === 'merging') {
    progress(state.done, state.total, 'Merging the index').catch(() => {});
  } else if (state.phase === 'scanning') {
    // Changed files are indexed while the scan goes on: the count of those grows, the total is not known yet.
    const stored = state.stored ?? 0;
    const message = `Scanned ${state.done} files${stored > 0 ? `, indexed ${stored} changed files` : ''}`;
    progress(stored, undefined, message).catch(() => {});
  } else if (state.phase === 'waiting') {
    progress(0, undefined, state.message ?? 'Waiting for another indexer').catch(() => {});
  }
}

/**
 * Waits up to `timeoutMs` for the index to open and its first indexing run to end, telling the caller how the run
 * goes meanwhile; resolves true when the run is over.
 */
export async function whenIndexReady(
  index: SearchIndex,
  timeoutMs: number,
  progress: ToolContext['progress'],
): Promise<boolean> {
  if (index.ready) return true;
  let last: IndexProgress | undefined;
  const timer = setInterval(() => {
    const state = index.indexing?.indexer.progress;
    if (!state || state === last) return;
    last = state;
    reportIndexProgress(progress, state);
  }, pollMs);
  try {
    return await index.whenReady(timeoutMs);
  } finally {
    clearInterval(timer);
  }
}
