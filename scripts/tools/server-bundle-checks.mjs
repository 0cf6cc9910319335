// Checks of a server's bundled build (ADR 0021, scripts/server-bundle.mjs), shared by the tests of servers/search,
// servers/database and servers/filesystem: which source files the loaded bundle files hold, and whether every file
// that src/ or the bundle names relative to itself (a worker, a child process, a task module) is in dist/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relativeFileUrl } from '../server-bundle.mjs';

/** The `.js` files under `folder`, relative to it. */
function scripts(folder, suffix) {
  return readdirSync(folder, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(suffix))
    .sort();
}

/** The messages a bundle test sends a server over stdio: the 2025-11-25 handshake, then tools/list as request 2. */
export const toolsListHandshake = [
  {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } },
  },
  { method: 'notifications/initialized' },
  { id: 2, method: 'tools/list' },
];

/**
 * The source files (relative to the package: `src/server.ts`) bundled into `files` (absolute paths of `.js` files
 * under `packageRoot/dist/`), read from their source maps. A file without a source map throws unless it is only
 * imports and exports (a facade that re-exports a chunk), or the reading would miss code.
 */
export function bundledSources(packageRoot, files) {
  return files.flatMap((file) => {
    if (!existsSync(`${file}.map`)) {
      const code = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !/^(import|export) .*;$/.test(line));
      if (code.length > 0) throw new Error(`${file} has code and no source map`);
      return [];
    }
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    return map.sources.map((source) => relative(packageRoot, resolve(dirname(file), source)));
  });
}

/**
 * Every `new URL('./file.js', import.meta.url)` of the package's sources (tests aside) and of its bundle: `source` is
 * the file that names it (relative to the package), `target` the file it names, `exists` whether that file is there
 * (for a source, its twin under `dist/`: where the bundle must have emitted it, and where `compiledModule` finds it).
 */
export function fileReferences(packageRoot) {
  const found = [];
  for (const [folder, suffix] of [
    ['src', '.ts'],
    ['dist', '.js'],
  ]) {
    for (const file of scripts(join(packageRoot, folder), suffix)) {
      if (file.endsWith('.test.ts')) continue;
      const path = join(packageRoot, folder, file);
      for (const match of readFileSync(path, 'utf8').matchAll(relativeFileUrl)) {
        if (!match[2].endsWith('.js')) continue; // a data file (../package.json), no module
        const named = resolve(dirname(path), match[2]);
        const target = folder === 'src' ? join(packageRoot, 'dist', relative(join(packageRoot, 'src'), named)) : named;
        found.push({
          source: relative(packageRoot, path),
          target: relative(packageRoot, target),
          exists: existsSync(target),
        });
      }
    }
  }
  return found;
}

/** The files of `packageRoot/dist/` among the module URLs a run loaded (`modulesLoadedAnswering`'s `modules`). */
export function distFiles(packageRoot, moduleUrls) {
  const dist = join(packageRoot, 'dist/');
  return moduleUrls
    .filter((url) => url.startsWith('file://'))
    .map((url) => fileURLToPath(url))
    .filter((path) => path.startsWith(dist));
}

/**
 * Code for `modulesLoadedAnswering`'s `preload`: writes `answered <id>` to stderr when the server writes its answer to
 * the request `id` (stdout is the protocol), so that {@link modulesLoadedBefore} can cut the log there.
 */
export function answerMarker(id) {
  return `const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes(${JSON.stringify(`"id":${id}`)})) process.stderr.write(${JSON.stringify(`answered ${id}\n`)});
  return writeStdout(chunk, ...rest);
};`;
}

/** The module URLs logged on `stderr` (`loaded <url>` lines) before the server wrote its answer to the request `id`. */
export function modulesLoadedBefore(stderr, id) {
  const lines = stderr.split('\n');
  const answered = lines.indexOf(`answered ${id}`);
  if (answered === -1) throw new Error(`No answer to request ${id} was marked on stderr`);
  return lines
    .slice(0, answered)
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
}

/**
 * What keeps the JavaScript files of `packageRoot/dist/` from being ASCII without doc comments, as the kit's and the
 * servers' bundles are written (ADR 0020): a character beyond ASCII (V8 keeps a module's source for the life of the
 * process, at two bytes a character once one is not ASCII) or a doc comment, one sentence per file; [] when none.
 */
export function bundleTextProblems(packageRoot) {
  const dist = join(packageRoot, 'dist');
  return scripts(dist, '.js').flatMap((file) => {
    const source = readFileSync(join(dist, file), 'utf8');
    const problems = [];
    const beyondAscii = /[^\t\n\r -~]/.exec(source);
    if (beyondAscii)
      problems.push(`dist/${file} holds ${JSON.stringify(beyondAscii[0])}, which is not printable ASCII.`);
    if (/^\s*\/\*\*\s/m.test(source)) problems.push(`dist/${file} holds a doc comment.`);
    return problems;
  });
}
