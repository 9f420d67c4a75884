import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the read worker and the spawned CLI run dist/: rebuilt first when older than src/
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // end-to-end tests spawn the CLI and servers: keep the 2-core machines from thrashing
    maxWorkers: 2,
  },
});
