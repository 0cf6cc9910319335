import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One PostgreSQL cluster for the run (see scripts/postgres-cluster.mjs); with CI=true it must start.
    globalSetup: ['test/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
