import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Polls wait for notifications and process state; a loaded 2-core machine can be slow to deliver them.
    expect: { poll: { timeout: 10_000, interval: 20 } },
  },
});
