import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One PostgreSQL cluster for the run, started as the database server's tests start theirs (its
    // scripts/postgres-cluster.mjs installs Debian's packages when missing); with CI=true it must start.
    globalSetup: ['../database/test/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
