import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { heavyTestTimeout, serverForEachTest } from './connected-server.js';
import { longestHoldWhile } from './responsiveness.js';

// A file that matches on every one of its millions of lines: the workers read and match it, and what comes back to
// the main thread must be what one page can show, not every match of the file.
describe('hostile files to grep', () => {
  const connected = serverForEachTest();

  it('greps a file of four million matching lines without holding the event loop, and pages through it', {
    timeout: heavyTestTimeout,
  }, async () => {
    // The worker sent every matching line's number (four million) and the whole text; the main thread made a set of
    // the numbers and split the text into lines: over a second here on a quiet machine.
    writeFileSync(join(connected.fixture.root, 'dense.txt'), 'a\n'.repeat(4 * 1024 * 1024 - 1));
    const grep = connected.client.callTool('grep', { pattern: 'a', path: 'dense.txt', maxMatches: 200 });
    const held = await longestHoldWhile(grep);
    const first = resultText(await grep);
    expect(first).toMatch(/^.*dense\.txt\n1: a\n2: a\n/);
    expect(first).toContain('\n200: a\n');
    expect(first).not.toContain('\n201: a');
    const cursor = /cursor="([^"]+)"/.exec(first)?.[1];
    expect(cursor).toBeDefined();
    const second = resultText(
      await connected.client.callTool('grep', { pattern: 'a', path: 'dense.txt', maxMatches: 200, cursor }),
    );
    expect(second).toMatch(/^.*dense\.txt\n201: a\n/);
    expect(second).toContain('\n400: a\n');
    expect(held, 'longest ms the event loop was held').toBeLessThan(400);
  });
});
