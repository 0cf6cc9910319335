import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { IndexDatabase } from './index-database.js';
import { sqliteWriter } from './sqlite-writer.js';

it('removes a large folder of documents in slices, letting the event loop run in between', async () => {
  const database = new IndexDatabase(':memory:');
  try {
    // A folder of 3,000 files deleted from disk: tens of microseconds each (the passages' FTS5 entries), about 100 ms
    // in all on a quiet machine, several slices of 20 ms; in one call, 100,000 files held the loop for seconds.
    const ids: number[] = [];
    database.transaction(() => {
      for (let file = 0; file < 3000; file++) {
        const path = `/docs/gone/${file}.md`;
        const passages = [{ line: 1, body: `note ${file} about sliced deletes` }];
        database.putDocument({
          path,
          relativePath: `gone/${file}.md`,
          size: 30,
          mtimeMs: 0,
          title: `note ${file}`,
          lineCount: 1,
          text: true,
          digest: new Uint8Array(),
          passages,
        });
        ids.push(database.documentIdAt(path) as number);
      }
    });
    let turns = 0;
    let deleting = true;
    const counting = (async () => {
      while (deleting) {
        await nextTurn();
        turns++;
      }
    })();
    await sqliteWriter(database).deleteDocuments(ids);
    deleting = false;
    await counting;
    expect(turns).toBeGreaterThan(1);
    expect(database.counts().documents).toBe(0);
  } finally {
    database.close();
  }
});
