// A lock left by a run that was killed, naming the pid the next run gets (a container's pid 1, a
// cron job's reused pid), must not block every later run: the shell execs node, so the stale lock
// written just before names this very process.
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { LOCK_FILE } from '../../src/state/run-lock.js';
import { SALES_PROFILES_CSV, spawnCli, tempFiles } from '../helpers/cli.js';

test('a stale lock naming the pid this run got is taken over, with a warning', async () => {
  const sandbox = await startSandbox({ port: 0, apiKey: 'lock-key-0123456789' });
  try {
    const d = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV });
    const state = join(d, 'state');
    mkdirSync(state);
    const lockJson = `{"pid":'$$',"hostname":"${hostname()}","startedAt":"yesterday","runId":"20261120T020000Z-dead"}`;
    const r = await spawnCli(['push', '--incremental', '--state-dir', state, join(d, 'sales-profiles.csv')], {
      env: { BATCH_SYNC_API_KEY: 'lock-key-0123456789', BATCH_SYNC_BASE_URL: sandbox.url },
      shellPrefix: `echo '${lockJson}' > '${join(state, LOCK_FILE)}'`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/took over the lock of a run that is gone.*20261120T020000Z-dead/);
  } finally {
    await sandbox.close();
  }
});
