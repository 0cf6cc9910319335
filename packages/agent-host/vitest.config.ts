import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too short for a log line, a pid file or a second call on a loaded
    // 2-core machine. A poll that passes returns at once, so the wider limit costs nothing when all is well.
    expect: { poll: { timeout: 10_000 } },
    // Most tests wait on child processes and sockets rather than the CPU, so a few files at once shorten the run
    // even on two cores.
    maxWorkers: 3,
  },
});
