// A low open-file limit (`ulimit -n 90`, seen on locked-down hosts and some CI containers) made the
// CLI die at start-up with a raw EMFILE stack: Node's ES module loader reads a whole static import
// graph at once, and zod's alone is ~100 files (its 64 locales are re-exported by every entry point).
// Before anything is sent that is one clear line and exit 2 (nothing was sent; raise the limit and
// run again); a connection that cannot be opened while sending stops the run, exit 3 (send tests).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';

let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

function expectOneLine(stderr: string) {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines).toEqual([
    expect.stringMatching(
      /^error: the open-file limit is 90 \(ulimit -n\), and batch-sync opens about 110 files at once while starting: raise it to at least 128, e\.g\. `ulimit -n 1024`, and run again$/,
    ),
  ]);
  expect(stderr).not.toMatch(/^\s+at /m);
}

test('validate under `ulimit -n 90`: one clear line, exit 2, no stack', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(20) });
  const { code, stdout, stderr } = await spawnCli(['validate', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], { shellPrefix: 'ulimit -n 90' });
  expect(code).toBe(2);
  expect(stdout).toBe('');
  expectOneLine(stderr);
});

test('push under `ulimit -n 90`: exit 2 before anything is sent', async () => {
  server = await startServer();
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(20) });
  const { code, stderr } = await spawnCli(['push', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    shellPrefix: 'ulimit -n 90',
    env: { BATCH_SYNC_API_KEY: 'fd-limit-key-0123456789', BATCH_SYNC_BASE_URL: server.url },
  });
  expect(code).toBe(2);
  expectOneLine(stderr);
  expect(server.requests).toHaveLength(0);
});

test('an EMFILE later in the run names the limit read at start-up: with no descriptor left, /proc cannot be read again', () => {
  // the same call order as the CLI: the limit read at start (bin/), the failure much later (main.ts, send/)
  const script = `
    import { openSync } from 'node:fs';
    import { fdLimitMessage, openFileLimit } from ${JSON.stringify(join(process.cwd(), 'dist/fd-limit.js'))};
    openFileLimit();
    const held = [];
    try { for (;;) held.push(openSync('/dev/null', 'r')); }
    catch (error) { console.log(fdLimitMessage(error, 'while sending')); }
  `;
  const out = execFileSync('sh', ['-c', `ulimit -n 150 && exec node --input-type=module -e "$0"`, script], { encoding: 'utf8' });
  expect(out.trim()).toBe(
    'too many open files (EMFILE) while sending: the limit is 150 open files (ulimit -n); raise it, e.g. `ulimit -n 1024`, and run again',
  );
});
