import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The compiled file a worker thread can load for a module of this package. Worker threads run JavaScript only: when
 * the package runs from its TypeScript sources (its unit tests), `new URL('./x.js', import.meta.url)` names a file
 * under `src/` that does not exist, and its compiled twin under `dist/` is used (the tests build first).
 */
export function workerModule(module: URL): URL {
  const path = fileURLToPath(module);
  if (existsSync(path)) return module;
  const sourceFolder = path.lastIndexOf('/src/');
  const twin = sourceFolder === -1 ? '' : `${path.slice(0, sourceFolder)}/dist/${path.slice(sourceFolder + 5)}`;
  if (twin && existsSync(twin)) return pathToFileURL(twin);
  throw new Error(`The worker module ${module.href} does not exist; build the package.`);
}
