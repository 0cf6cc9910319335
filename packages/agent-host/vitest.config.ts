import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most tests wait on child processes and sockets rather than the CPU, so a few files at once shorten the run
    // even on two cores.
    maxWorkers: 3,
  },
});
