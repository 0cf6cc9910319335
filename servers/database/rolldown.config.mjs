// This server's JavaScript build: its entries, workers and task modules bundled from src/ (ADR 0021,
// scripts/server-bundle.mjs). Declarations come from `tsc -b tsconfig.declarations.json`; `npm run build` runs both.
import { fileURLToPath } from 'node:url';
import { defineConfig, RolldownMagicString } from 'rolldown';
import { serverBundle } from '../../scripts/server-bundle.mjs';

const config = serverBundle(import.meta.url, RolldownMagicString);

/**
 * What a SQLite worker process runs beside its entry, and what the server process loads only for a call that renders
 * or checks a result in the server (ADR 0205): the result rendering, the statement rules and the cells. None is on
 * the start path any more, so the groups of serverBundle leave them one chunk each (and a facade each for the
 * `import()`s); one chunk keeps a worker's start at two files of this package, as it was.
 */
const resultModules = [
  'query-result.ts',
  'result-budget.ts',
  'result-text.ts',
  'statement-safety.ts',
  'sql-words.ts',
  'engines/cells.ts',
  'error-text.ts',
].map((path) => fileURLToPath(new URL(`src/${path}`, import.meta.url)));

config.output.codeSplitting.groups.push({ name: 'results', test: (id) => resultModules.includes(id), priority: 0 });

export default defineConfig(config);
