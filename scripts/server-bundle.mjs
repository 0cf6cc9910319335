// The JavaScript build of the servers (servers/search, servers/database, servers/filesystem; ADR 0021): each server's
// entries (`main`, which its bin runs, and `index`, its package export) and every worker thread, child process and
// off-thread task module it names as `new URL('./file.js', import.meta.url)`, bundled together from the TypeScript
// sources with shared chunks, so that a server's start reads a few files instead of one per module (Node 20's ESM
// loader costs about 1 ms of CPU per module). Modules loaded by `import()` stay chunks of their own; packages and
// built-ins are never bundled. Each server's rolldown.config.mjs is `serverBundle(import.meta.url, RolldownMagicString)`.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How the kit's and the servers' bundles are written: ASCII, without the doc comments (the declarations keep them; legal
 * and annotation comments stay). V8 keeps a module's source as a string for the life of the process, at two bytes a
 * character once one character is not ASCII (an ellipsis, an arrow): the kit's server chunk was 118 KB held as 236 KB,
 * and 92 KB held as 92 KB once written so (ADR 0020). The kit's rolldown.config.mjs spreads it into its output too.
 */
export const bundleText = { charset: 'ascii', comments: { jsdoc: false, legal: true, annotation: true } };

/** `new URL('<relative path>', import.meta.url)`, a file named relative to the module's own. */
export const relativeFileUrl = /new URL\(\s*(['"])(\.\.?\/[^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** `createRequire(import.meta.url)`: a require that resolves packages from the module's folder, no file of src/. */
const packageRequire = /createRequire\(\s*import\.meta\.url\s*\)/g;

/**
 * A module names its worker entries and task modules relative to its own file (`new URL('./search-task.js',
 * import.meta.url)`); in the bundle its code sits in whichever file the chunking chose. Each such `.js` that is a
 * `.ts` of `src/` becomes an entry of the build, emitted at the path it has under `src/` (`dist/local-index/
 * search-task.js`: where `compiledModule` finds it for tests run from `src/`), and the reference becomes one to that
 * file relative to the chunk (`import.meta.ROLLUP_FILE_URL_*`). A `.js` with no `.ts` fails the build; any other
 * relative URL (`../package.json`) is left alone and its module must stay in a file of its own folder.
 */
function workerEntries(sourceFolder, MagicString, graph) {
  /** Modules with a relative URL left as written: the folder under `src/` they must be emitted in. */
  const keptUrls = new Map();
  return {
    name: 'mcpkit-worker-entries',
    transform(code, id) {
      if (!id.startsWith(sourceFolder) || !code.includes('import.meta.url')) return null;
      let text;
      for (const match of code.matchAll(relativeFileUrl)) {
        const [expression, , path] = match;
        if (!path.endsWith('.js')) {
          keptUrls.set(id, dirname(relative(sourceFolder, id)));
          continue;
        }
        const target = resolve(dirname(id), `${path.slice(0, -'.js'.length)}.ts`);
        if (!target.startsWith(sourceFolder) || !existsSync(target)) {
          this.error(`${relative(sourceFolder, id)} names ${path}, which is no TypeScript module of src/`);
        }
        const name = relative(sourceFolder, target).slice(0, -'.ts'.length).split(sep).join('/');
        const reference = this.emitFile({ type: 'chunk', id: target, fileName: `${name}.js` });
        graph.workerEntries.add(target);
        text ??= new MagicString(code);
        text.overwrite(
          match.index,
          match.index + expression.length,
          `new URL(import.meta.ROLLUP_FILE_URL_${reference})`,
        );
      }
      // Any other use would name a file the bundle never emits (a template literal, a variable) and fail only at
      // run time: the build refuses it. `createRequire(import.meta.url)` resolves packages, not files of src/.
      const followed = [...code.matchAll(relativeFileUrl)].length + [...code.matchAll(packageRequire)].length;
      if ([...code.matchAll(/import\.meta\.url/g)].length > followed) {
        this.error(
          `${relative(sourceFolder, id)} uses import.meta.url other than as new URL('./file.js', import.meta.url) ` +
            'with a quoted relative path, which the bundle cannot follow to the file it names',
        );
      }
      return text ? { code: text } : null;
    },
    // Once every module is known: which the main entry loads at once, and which a worker entry does (the groups'
    // tests read them; chunking comes after this hook).
    buildEnd() {
      const reached = (entries) => {
        const seen = new Set();
        const next = [...entries];
        while (next.length > 0) {
          const id = next.pop();
          if (seen.has(id)) continue;
          seen.add(id);
          next.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      graph.mainStart = reached([graph.main]);
      graph.workerSide = reached(graph.workerEntries);
    },
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const folder = dirname(file.fileName);
        for (const id of file.moduleIds) {
          const wanted = keptUrls.get(id);
          if (wanted !== undefined && wanted !== folder) {
            this.error(
              `${relative(sourceFolder, id)} names a file relative to itself, but its code went into ${file.fileName}: ` +
                'keep it an entry (or a module only an entry of its folder holds)',
            );
          }
        }
      }
    },
  };
}

/**
 * The rolldown options of the server whose rolldown.config.mjs has the URL `configUrl`. `MagicString` is rolldown's
 * `RolldownMagicString`, passed in because rolldown resolves from the server's folder, not from this one.
 * `entries` names more modules of `src/` (without `.ts`) to emit at their own path, for tests that load them.
 */
export function serverBundle(configUrl, MagicString, { entries = [] } = {}) {
  const packageRoot = fileURLToPath(new URL('.', configUrl));
  const sourceFolder = `${resolve(packageRoot, 'src')}${sep}`;
  const main = `${sourceFolder}main.ts`;
  /** Filled by the plugin: the worker entries, and the modules the main entry and the workers load statically. */
  const graph = { main, workerEntries: new Set(), mainStart: new Set(), workerSide: new Set() };
  const ownModule = (id) => id.startsWith(sourceFolder) && id !== main && !graph.workerEntries.has(id);
  return {
    input: {
      main,
      index: `${sourceFolder}index.ts`,
      ...Object.fromEntries(entries.map((name) => [name, `${sourceFolder}${name}.ts`])),
    },
    platform: 'node',
    // Anything not a file of this package (packages, the kit, `node:` built-ins) is imported at run time.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    transform: { target: 'es2023' },
    plugins: [workerEntries(sourceFolder, MagicString, graph)],
    output: {
      dir: resolve(packageRoot, 'dist'),
      format: 'esm',
      sourcemap: true,
      ...bundleText,
      cleanDir: true,
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      codeSplitting: {
        groups: [
          // What the start shares with the workers: one file, which a worker loads with its own.
          {
            name: 'shared',
            test: (id) => ownModule(id) && graph.mainStart.has(id) && graph.workerSide.has(id),
            priority: 2,
          },
          // The rest of what the main entry loads at once (the server, its tools): one file, not one per module.
          // Modules loaded by `import()` (an index backend, a database engine, the readers) keep chunks of their own.
          { name: 'server', test: (id) => ownModule(id) && graph.mainStart.has(id), priority: 1 },
        ],
      },
    },
  };
}
