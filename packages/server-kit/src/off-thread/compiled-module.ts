import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KitError } from '../errors.js';

const resolved = new Map<string, URL>();

/**
 * The compiled file a worker can load for a module (a task module, or a package's own worker entry; packages import
 * it from `@mcpkit/server-kit/compiled-module`, which loads nothing else). Worker threads run JavaScript only; when a package runs
 * from its TypeScript sources (its unit tests), `new URL('./task.js', import.meta.url)` names a file under `src/`
 * that does not exist, and the compiled twin under `dist/` is used (the test task builds first).
 */
export function compiledModule(module: URL): URL {
  const known = resolved.get(module.href);
  if (known) return known;
  let found: URL | undefined;
  if (module.protocol !== 'file:') found = module;
  else {
    const path = fileURLToPath(module);
    if (existsSync(path)) found = module;
    else {
      const sourceFolder = path.lastIndexOf('/src/');
      const twin =
        sourceFolder === -1 ? undefined : `${path.slice(0, sourceFolder)}/dist/${path.slice(sourceFolder + 5)}`;
      if (twin && existsSync(twin)) found = pathToFileURL(twin);
    }
  }
  if (!found) {
    throw new KitError('INVALID_OPTIONS', `The worker module ${module.href} does not exist; build the package.`);
  }
  resolved.set(module.href, found);
  return found;
}
