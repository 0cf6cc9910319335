import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { heavyTestTimeout, serverForEachTest } from './connected-server.js';

/** Makes `depth` nested folders named `name` under `base` (each through the last, as a local process can), and a file. */
function makeChain(base: string, depth: number, name: string): void {
  const script = `import os\nos.makedirs(${JSON.stringify(base)})\nos.chdir(${JSON.stringify(base)})\nfor _ in range(${depth}):\n    os.mkdir(${JSON.stringify(name)})\n    os.chdir(${JSON.stringify(name)})\nopen('bottom.txt', 'w').write('needle at the bottom\\n')\n`;
  execFileSync('python3', ['-c', script]);
}

// A tree deeper than any path the system accepts (4,096 bytes): made one level at a time, it exists all the same.
describe('a hostile tree deeper than the path limit', () => {
  const folder = 'd'.repeat(100);
  const connected = serverForEachTest({
    prepare: ({ root }) => makeChain(join(root, 'chain'), 5_000, folder),
    // Node's recursive removal works by path, which a tree this deep passes.
    beforeCleanup: ({ root }) => execFileSync('rm', ['-rf', join(root, 'chain')]),
  });

  it('walks down to the path limit and says how many directories it did not enter, instead of "No matches"', {
    timeout: heavyTestTimeout,
  }, async () => {
    // Past a few thousand levels the walk's nested generators ran out of stack, the error was taken for a folder
    // that vanished, and search_files and grep answered "No matches found" for a file that is there.
    const search = resultText(
      await connected.client.callTool('search_files', { path: 'chain', pattern: 'bottom.txt' }),
    );
    expect(search).toMatch(
      /^No matches found\n\[note: 1 directory was not entered: its path passes the system's 4,096-byte limit/,
    );
    const grep = resultText(await connected.client.callTool('grep', { pattern: 'needle', path: 'chain' }));
    expect(grep).toMatch(/\[note: 1 directory was not entered: its path passes the system's 4,096-byte limit/);
    const tree = resultText(
      await connected.client.callTool('directory_tree', { path: 'chain', format: 'compact', cursor: undefined }),
    );
    expect(tree.startsWith(`${folder}/\n  ${folder}/\n`)).toBe(true);
  });
});

describe('a hostile folder whose name is not UTF-8', () => {
  const connected = serverForEachTest({
    // Node reads such a name back with U+FFFD, which names nothing on disk: the folder cannot be opened by it.
    prepare: ({ root }) =>
      execFileSync('python3', [
        '-c',
        `import os\nos.makedirs(os.path.join(${JSON.stringify(root)}.encode(), b'hidden-\\xff'))\nopen(os.path.join(${JSON.stringify(root)}.encode(), b'hidden-\\xff', b'inside.txt'), 'w').write('needle inside\\n')\n`,
      ]),
  });

  it('says that a folder could not be entered instead of searching around it in silence', async () => {
    const grep = resultText(await connected.client.callTool('grep', { pattern: 'needle inside', path: '.' }));
    expect(grep).toMatch(/^No matches found.*\n\[note: 1 directory could not be opened and was not entered/);
    const search = resultText(await connected.client.callTool('search_files', { path: '.', pattern: 'inside.txt' }));
    expect(search).toMatch(/^No matches found\n\[note: 1 directory could not be opened and was not entered/);
  });
});
