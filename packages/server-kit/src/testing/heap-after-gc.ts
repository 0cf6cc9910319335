import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collectGarbage: (() => void) | undefined;

/**
 * The heap in use after two full garbage collections, for soak tests that bound the memory a call leaves behind.
 * Works without starting the test runner with `--expose-gc`: the flag is set at run time and `gc` is taken from a
 * fresh context, which picks it up.
 */
export function heapAfterGc(): number {
  if (!collectGarbage) {
    setFlagsFromString('--expose-gc');
    collectGarbage = runInNewContext('gc') as () => void;
  }
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
