// A state, report or errors directory that cannot be written: a clear one-line error, exit 2 or 3,
// and nothing sent that could not be recorded. As root chmod does not stop us, so the directories
// are placed under a regular file (ENOTDIR), which fails for every user.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { runCli } from '../helpers/cli.js';
import { expectCleanStderr } from './bad-input-checks.js';
import { KEY, accountsFile } from './faults-helpers.js';

let sandbox: SandboxHandle;
sandboxPerFile(
  KEY,
  (s) => {
    sandbox = s;
  },
  { reset: true },
);

describe('an unwritable state or report directory', () => {
  test.each([
    ['--state-dir', (blocker: string) => ['--incremental', '--state-dir', join(blocker, 'state')]],
    ['--report-dir', (blocker: string) => ['--state-dir', join(blocker, '..', 'ok-state'), '--report-dir', join(blocker, 'reports')]],
    ['--errors', (blocker: string) => ['--errors', join(blocker, 'failed.csv')]],
  ])('%s under a regular file: clear error, exit 2, nothing sent', async (_flag, args) => {
    const { dir, file } = accountsFile(5);
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, 'a file where a directory should be');
    const r = await runCli(['push', ...args(blocker), file], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url });
    // nothing was sent yet: a configuration error (2), not an internal error (70)
    expect(r.code).toBe(2);
    expectCleanStderr(r.stderr);
    expect(r.stderr).toMatch(/^error: .*not-a-dir/m);
    expect(r.stderr).not.toContain(KEY);
    expect(sandbox.stats().requests).toBe(0);
  });
});

describe('a push that stops before sending (exit 2)', () => {
  test.each([
    ['an input that does not exist', (dir: string) => [join(dir, 'missing.csv')]],
    ['an --errors path under a regular file', (dir: string, file: string) => ['--errors', join(dir, 'not-a-dir', 'failed.csv'), file]],
  ])("%s: no run folder is left in --report-dir, earlier runs' folders stay", async (_case, args) => {
    const { dir, file } = accountsFile(3);
    writeFileSync(join(dir, 'not-a-dir'), 'a file where a directory should be');
    const reports = join(dir, 'reports');
    const earlier = join(reports, '20240101T000000Z-abcd');
    mkdirSync(earlier, { recursive: true });
    const r = await runCli(['push', '--report-dir', reports, ...args(dir, file)], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url });
    expect(r.code).toBe(2);
    expect(sandbox.stats().requests).toBe(0);
    expect(readdirSync(reports)).toEqual(['20240101T000000Z-abcd']);
  });
});
