import { existsSync, readFileSync } from 'node:fs';

const packageRoot = new URL('../../', import.meta.url);

/** What a bundle is built from: each file by path relative to the package with its SHA-256, and rolldown's version. */
export interface BundleSources {
  rolldown: string;
  files: Record<string, string>;
}

/** What the bundle would be built from now: the listing of rolldown.config.mjs (src, the config, tsconfig, rolldown). */
export async function currentBundleSources(): Promise<BundleSources> {
  const config = (await import(new URL('rolldown.config.mjs', packageRoot).href)) as {
    bundleSources(): BundleSources;
  };
  return config.bundleSources();
}

const rebuild = '`npx turbo run build --filter=@mcpkit/server-kit` (or `npm run build` in packages/server-kit)';

/** What the bundle in dist/ was built from, as the build wrote it. */
function builtBundleSources(): BundleSources {
  const written = new URL('dist/bundle-sources.json', packageRoot);
  if (!existsSync(written)) throw new Error(`packages/server-kit/dist has no bundle: run ${rebuild} first.`);
  const built = JSON.parse(readFileSync(written, 'utf8')) as Partial<BundleSources>;
  // A build from before the listing had its config and rolldown's version wrote only the sources' digests.
  return { rolldown: built.rolldown ?? 'unknown', files: built.files ?? {} };
}

/**
 * Fails, naming what changed, unless dist/ was bundled from the kit's files as they are now: for the tests that run
 * the bundle (fixtures importing `@mcpkit/server-kit`, the worker pool's thread entry), so that a single test file
 * run after an edit without a rebuild says so instead of testing the old bundle (ADR 0020).
 */
export async function expectFreshBundle(): Promise<void> {
  const built = builtBundleSources();
  const current = await currentBundleSources();
  const paths = new Set([...Object.keys(built.files), ...Object.keys(current.files)]);
  const changed = [...paths].filter((path) => built.files[path] !== current.files[path]);
  if (built.rolldown !== current.rolldown) changed.push(`rolldown ${built.rolldown} -> ${current.rolldown}`);
  if (changed.length > 0) {
    throw new Error(
      `packages/server-kit/dist was bundled from other files than these (${changed.join(', ')}): run ${rebuild} first.`,
    );
  }
}
