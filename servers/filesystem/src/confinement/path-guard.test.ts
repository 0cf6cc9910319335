import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PathGuard } from './path-guard.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-roots-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('PathGuard', () => {
  const allowed = join(base, 'allowed');
  const inner = join(allowed, 'inner');
  const other = join(base, 'other');
  mkdirSync(inner, { recursive: true });
  mkdirSync(other);
  symlinkSync(allowed, join(base, 'via-link'));

  it('stores the real paths of the configured directories and refuses missing ones', async () => {
    const guard = await PathGuard.create([join(base, 'via-link'), allowed]);
    expect(guard.configured).toEqual([allowed]);
    await expect(PathGuard.create([join(base, 'nope')])).rejects.toThrow(/None of the allowed directories/);
    const partly = await PathGuard.create([join(base, 'nope'), allowed]);
    expect(partly.configured).toEqual([allowed]);
    expect(partly.skipped).toEqual([`Allowed directory ${join(base, 'nope')} does not exist.`]);
  });

  it('narrows to client roots inside the configured set and refuses roots that do not overlap', async () => {
    const guard = await PathGuard.create([allowed]);
    const roots = [{ uri: pathToFileURL(inner).href }, { uri: pathToFileURL(other).href }, { uri: 'https://x.test/' }];
    const scope = await guard.scope({ roots: async () => roots });
    expect(scope.directories).toEqual([inner]);
    const wider = await guard.scope({ roots: async () => [{ uri: pathToFileURL(base).href }] });
    expect(wider.directories).toEqual([allowed]);
    await expect(guard.scope({ roots: async () => [{ uri: pathToFileURL(other).href }] })).rejects.toThrow(
      /do not overlap/,
    );
  });

  it('keeps the configured set when the client offers no roots, and needs some directory', async () => {
    const guard = await PathGuard.create([allowed]);
    expect((await guard.scope({ roots: async () => undefined })).directories).toEqual([allowed]);
    const empty = await PathGuard.create([]);
    await expect(empty.scope()).rejects.toThrow(/No directory is allowed yet/);
  });

  it('resolves relative paths against the first directory and refuses NUL bytes', async () => {
    const scope = await (await PathGuard.create([allowed])).scope();
    expect(scope.absolute('inner/x.txt')).toBe(join(inner, 'x.txt'));
    expect(() => scope.absolute('a\0b')).toThrow(/NUL/);
    expect(scope.directoryOf(join(inner, 'x'))).toBe(allowed);
  });
});
