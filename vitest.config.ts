import { defineConfig } from 'vitest/config';

// npm test runs the suite once per engine (test:simple, then test:fast). BATCH_SYNC_TEST_ENGINES, if
// set, lists the engines whose pass runs: .ci/run runs both on the newest Node and only `fast` on
// the other supported ones, to keep CI within its time. The other pass says so and runs nothing.
const engines = process.env.BATCH_SYNC_TEST_ENGINES?.split(/[\s,]+/).filter(Boolean);
const unknown = engines?.filter((e) => e !== 'simple' && e !== 'fast');
if (unknown?.length) throw new Error(`BATCH_SYNC_TEST_ENGINES names ${unknown.join(', ')}: the engines are simple and fast`);
const engine = process.env.BATCH_SYNC_ENGINE;
const skipped = engines !== undefined && engine !== undefined && !engines.includes(engine);
if (skipped) process.stderr.write(`BATCH_SYNC_TEST_ENGINES=${engines.join(',')}: the ${engine} engine's pass is skipped\n`);

export default defineConfig({
  test: {
    include: skipped ? [] : ['test/**/*.test.ts'],
    passWithNoTests: skipped,
    // the read worker and the spawned CLI run dist/: rebuilt first when older than src/
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // end-to-end tests spawn the CLI and servers: keep the 2-core machines from thrashing
    maxWorkers: 2,
  },
});
