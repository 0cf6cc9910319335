import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkReferences } from '../../../scripts/tools/check-references.mjs';

// The live workspace is checked by `npm test` itself (scripts/tools/check-references.mjs, uncached: it reads every
// package, which no one package's cached test task takes as inputs). Here: that the check finds what it must.

let workspace: string | undefined;

afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
});

function write(path: string, content: unknown): void {
  const file = join(workspace as string, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
}

/** A workspace where servers/app imports packages/library, its build project referencing `references`. */
function appImportingLibrary(references: { path: string }[], importLine = "import { x } from '@fixture/library';\n") {
  workspace = mkdtempSync(join(tmpdir(), 'references-'));
  write('packages/library/package.json', {
    name: '@fixture/library',
    scripts: { build: 'tsc -b tsconfig.build.json' },
  });
  write('packages/library/tsconfig.build.json', {});
  write('packages/library/src/index.ts', 'export const x = 1;\n');
  write('servers/app/package.json', {
    name: '@fixture/app',
    scripts: { build: 'rolldown -c && tsc -b tsconfig.declarations.json' },
  });
  write('servers/app/tsconfig.declarations.json', { references });
  write('servers/app/src/main.ts', importLine);
  write('servers/app/src/main.test.ts', "import '@fixture/other';\n");
  write('examples/other/package.json', { name: '@fixture/other' });
  return workspace;
}

describe('the project-reference check (ADR 0020)', () => {
  it('names a package that imports another without referencing its build project', () => {
    const { expected, problems } = checkReferences(appImportingLibrary([]));
    expect(expected).toEqual(['servers/app/tsconfig.declarations.json -> @fixture/library']);
    expect(problems).toEqual([
      'servers/app/tsconfig.declarations.json imports @fixture/library but does not reference packages/library/tsconfig.build.json.',
    ]);
  });

  it('passes with the reference, and sees dynamic imports of subpaths', () => {
    expect(
      checkReferences(appImportingLibrary([{ path: '../../packages/library/tsconfig.build.json' }])).problems,
    ).toEqual([]);
    const dynamic = appImportingLibrary([], "const library = await import('@fixture/library/deep');\n");
    expect(checkReferences(dynamic).problems).toHaveLength(1);
  });

  it('names an imported package with no tsc -b build project, and ignores imports of tests', () => {
    const root = appImportingLibrary([]);
    write('packages/library/package.json', { name: '@fixture/library', scripts: { build: 'node build.mjs' } });
    expect(checkReferences(root).problems).toEqual([
      '@fixture/library is imported by servers/app/tsconfig.declarations.json -> @fixture/library but has no tsc -b build project.',
    ]);
  });
});
