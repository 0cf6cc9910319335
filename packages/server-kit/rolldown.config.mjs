// The kit's JavaScript build (ADR 0020): every entry of package.json `exports`, and the worker pool's thread entry,
// bundled together from the TypeScript sources, so that a server's start reads a handful of files instead of ~40
// modules (Node 20's ESM loader costs about 1 ms of CPU per module) and the entries share one copy of each class
// (`KitError`, `ToolError`, the session: `instanceof` works across `.`, `./cli`, `./testing`, `./task`). Modules
// loaded on first use (`import()`) stay chunks of their own. Dependencies and built-ins are never bundled.
// Declarations come from `tsc -b tsconfig.declarations.json`; `npm run build` runs both.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, RolldownMagicString, VERSION } from 'rolldown';
import { bundleText } from '../../scripts/server-bundle.mjs';

const packageRoot = fileURLToPath(new URL('.', import.meta.url));
const source = (path) => resolve(packageRoot, 'src', path);
/** A folder of src/ as a prefix of module ids (with its separator, so `cli/` does not take `client-session.ts`). */
const folder = (path) => `${resolve(packageRoot, 'src', path)}${sep}`;
/** The TypeScript configuration the transform reads (`verbatimModuleSyntax`, `useDefineForClassFields` change output). */
const typescriptConfig = resolve(packageRoot, 'tsconfig.json');
const workerPool = source('off-thread/worker-pool.ts');
const taskWorker = source('off-thread/task-worker.ts');
// The other entries' own modules, kept out of the main entry's shared file (a worker thread loads only its own).
const ownedByOtherEntries = [
  folder('cli'),
  folder('testing'),
  source('task.ts'),
  source('off-thread/compiled-module.ts'),
];
const threadSide = [source('off-thread/task-worker.ts'), source('off-thread/task-protocol.ts')];
const workerFileReference = "new URL('./task-worker.js', import.meta.url)";
/** Where the output options this bundle shares with the servers' come from (`bundleText`). */
const sharedOptions = fileURLToPath(new URL('../../scripts/server-bundle.mjs', import.meta.url));

/**
 * The worker pool names its thread entry relative to its own file (`off-thread/`); in the bundle its code sits in
 * whichever file the chunking chose, so the reference becomes one to the emitted thread entry, relative to that file.
 * Fails the build if the line it rewrites has changed.
 */
function workerFileUrl() {
  return {
    name: 'mcpkit-worker-file-url',
    transform(code, id) {
      if (id !== workerPool) return null;
      const at = code.indexOf(workerFileReference);
      if (at === -1 || code.indexOf(workerFileReference, at + 1) !== -1) {
        this.error(`${relative(packageRoot, id)} must name its thread entry exactly once as ${workerFileReference}`);
      }
      const reference = this.emitFile({ type: 'chunk', id: taskWorker, name: 'off-thread/task-worker' });
      const text = new RolldownMagicString(code);
      text.overwrite(at, at + workerFileReference.length, `new URL(import.meta.ROLLUP_FILE_URL_${reference})`);
      return { code: text };
    },
  };
}

/** A tsconfig file and the files it extends (by relative path: the workspace's base). */
function typescriptConfigChain(path) {
  const { extends: base } = JSON.parse(readFileSync(path, 'utf8'));
  return [path, ...(typeof base === 'string' ? typescriptConfigChain(resolve(dirname(path), base)) : [])];
}

/**
 * What the bundle is built from, by path relative to the package, each with a digest: every `.ts` under `src/` but
 * tests, this file, `scripts/server-bundle.mjs` (whose `bundleText` it takes), the TypeScript configuration the
 * transform reads (and what it extends), and rolldown's version. The build writes it to `dist/bundle-sources.json`
 * and `test/bundle.test.ts` compares it with this function's answer now, so that tests fail on a bundle older than
 * any of them (a `tsc -b` refreshes only the declarations, and a single test file run does not rebuild).
 */
export function bundleSources() {
  const paths = [
    ...readdirSync(source(''), { recursive: true })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => source(file)),
    fileURLToPath(import.meta.url),
    sharedOptions,
    ...typescriptConfigChain(typescriptConfig),
  ];
  const digests = paths
    .map((path) => [relative(packageRoot, path), createHash('sha256').update(readFileSync(path)).digest('hex')])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { rolldown: VERSION, files: Object.fromEntries(digests) };
}

/** Writes {@link bundleSources} as `dist/bundle-sources.json`. */
function sourcesDigest() {
  return {
    name: 'mcpkit-sources-digest',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'bundle-sources.json',
        source: `${JSON.stringify(bundleSources(), null, 1)}\n`,
      });
    },
  };
}

export default defineConfig({
  input: {
    index: source('index.ts'),
    'cli/index': source('cli/index.ts'),
    'testing/index': source('testing/index.ts'),
    task: source('task.ts'),
    'off-thread/compiled-module': source('off-thread/compiled-module.ts'),
    'off-thread/task-worker': taskWorker,
  },
  platform: 'node',
  tsconfig: typescriptConfig,
  // Anything not a file of this package (packages, `node:` built-ins) is imported at run time, as before.
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  transform: { target: 'es2023' },
  plugins: [workerFileUrl(), sourcesDigest()],
  output: {
    dir: 'dist',
    format: 'esm',
    sourcemap: true,
    // ASCII without doc comments, as the servers' bundles (ADR 0020).
    ...bundleText,
    cleanDir: true,
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    codeSplitting: {
      groups: [
        // What the thread entries and `./task` share with the rest stays small: a worker loads only these.
        { name: 'errors', test: (id) => id === source('errors.ts'), priority: 3 },
        { name: 'compile-glob', test: (id) => id.startsWith(folder('glob')), priority: 2 },
        // The rest that the main entry loads at once (what answers `tools/list`): one file, not one per module.
        // `$initial`: modules loaded by `import()` only (the call path, the round engine, readers, HTTP endpoint) keep
        // their chunks.
        {
          name: 'server',
          test: (id) =>
            id.startsWith(folder('')) &&
            !ownedByOtherEntries.some((path) => id.startsWith(path)) &&
            !threadSide.includes(id),
          tags: ['$initial'],
          priority: 1,
        },
      ],
    },
  },
});
