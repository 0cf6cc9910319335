import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary tree with an allowed root and every trap the confinement must hold against. */
export interface Fixture {
  base: string;
  root: string;
  outside: string;
  /** `${base}/root_secret`: shares the root's name as a string prefix (CVE-2025-53110). */
  prefixSibling: string;
  cleanup(): void;
}

/** A one-pixel PNG. */
export const pixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Builds the fixture tree in a fresh temporary directory. */
export function createFixture(): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-fs-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  const prefixSibling = join(base, 'root_secret');
  for (const directory of [root, outside, prefixSibling, join(root, 'sub', 'deeper'), join(root, 'build')]) {
    mkdirSync(directory, { recursive: true });
  }
  mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(root, 'hello.txt'), 'hello\nworld\n');
  writeFileSync(join(root, 'lines.txt'), Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n'));
  writeFileSync(join(root, 'sub', 'nested.txt'), 'nested needle here\nsecond line\n');
  writeFileSync(join(root, 'sub', 'deeper', 'deep.md'), '# Deep\nNEEDLE upper\n');
  writeFileSync(join(root, '.gitignore'), 'ignored.log\nbuild/\n');
  writeFileSync(join(root, 'ignored.log'), 'needle in ignored\n');
  writeFileSync(join(root, 'build', 'out.txt'), 'needle in build\n');
  writeFileSync(join(root, 'node_modules', 'pkg', 'index.js'), 'needle in node_modules\n');
  writeFileSync(join(root, 'image.png'), pixelPng);
  writeFileSync(join(root, 'binary.bin'), Buffer.from([0, 1, 2, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0]));
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET needle\n');
  writeFileSync(join(prefixSibling, 'secret.txt'), 'PREFIX SECRET needle\n');
  // Links that leave the root, one that dangles outside, and one that loops.
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out'));
  symlinkSync(outside, join(root, 'dir-out'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 'dangling'));
  symlinkSync('.', join(root, 'sub', 'loop'));
  symlinkSync('hello.txt', join(root, 'link-in'));
  writeFileSync(join(outside, 'hard-target.txt'), 'HARD LINKED original\n');
  linkSync(join(outside, 'hard-target.txt'), join(root, 'hard.txt'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
  return { base, root, outside, prefixSibling, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
