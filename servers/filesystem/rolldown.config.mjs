// This server's JavaScript build: its entries, workers and task modules bundled from src/ (ADR 0021,
// scripts/server-bundle.mjs). Declarations come from `tsc -b tsconfig.declarations.json`; `npm run build` runs both.
import { defineConfig, RolldownMagicString } from 'rolldown';
import { serverBundle } from '../../scripts/server-bundle.mjs';

export default defineConfig(serverBundle(import.meta.url, RolldownMagicString));
