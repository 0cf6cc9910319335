import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A stand-in for a hung mount: a FIFO that the stuck preparing thread reads from, and its release. */
export interface HungMount {
  /** The FIFO, also in `MCPKIT_TEST_HUNG_FIFO` until the release (a child process is given it in its environment). */
  fifo: string;
  /** The preparing thread's module that blocks in a read on the FIFO (`test/fixtures/stuck-preparation-worker.mjs`). */
  preparationModule: URL;
  /**
   * Resolves once the stuck thread is about to block in its read (it makes `<fifo>.reading` just before it): a loaded
   * machine may take seconds to start the thread and get it there, longer than any fixed wait. Rejects after 15 s.
   */
  reading(): Promise<void>;
  /** Lets the stuck read return, so the thread ends. */
  release(): void;
}

/** How long {@link HungMount.reading} waits for the thread's marker. */
const readingLimitMs = 15_000;

/** Makes the FIFO in `folder` and points the stuck preparing thread at it. */
export function hungMount(folder: string): HungMount {
  const fifo = join(folder, 'hung');
  execFileSync('mkfifo', [fifo]);
  process.env.MCPKIT_TEST_HUNG_FIFO = fifo;
  return {
    fifo,
    preparationModule: new URL('./fixtures/stuck-preparation-worker.mjs', import.meta.url),
    async reading() {
      const marker = `${fifo}.reading`;
      for (const started = performance.now(); !existsSync(marker); ) {
        if (performance.now() - started > readingLimitMs) {
          throw new Error(`The stuck preparing thread did not reach its read within ${readingLimitMs / 1000} s.`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    release() {
      delete process.env.MCPKIT_TEST_HUNG_FIFO;
      // The stuck thread holds the FIFO open for reading: this write lets its read return, and the thread end. No
      // reader (ENXIO): the thread never got to its read (a loaded machine), nothing to release.
      let descriptor: number;
      try {
        descriptor = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch {
        return;
      }
      writeSync(descriptor, 'x');
      closeSync(descriptor);
    },
  };
}
