// Output files that cannot be written (issue 16 item 11): a full disk (/dev/full), a directory, a
// missing folder, an errors CSV that fails only while being written. Before anything is sent such a
// failure is exit 2; after sending it is exit 3 with the report still printed; always one `error:`
// line naming the file, never a stack, and never a summary saying OK. The built CLI, spawned.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { BIN, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';

const KEY = 'output-failures-key-0123456789';
let sandbox: SandboxHandle;
let env: Record<string, string>;
sandboxPerFile(KEY, (s, e) => {
  sandbox = s;
  env = e;
});
beforeAll(() => {
  if (!existsSync(join(BIN, '../../dist/main.js'))) throw new Error('build first: npm run build');
});

const noStack = (stderr: string) => {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/internal error|Unhandled|node:events/);
};

test.runIf(existsSync('/dev/full'))(
  'validate --emit /dev/full: exit 2, one line saying the disk is full, the report still printed, never "OK exit=0"',
  async () => {
    const dir = tempFiles({ 'deals.csv': dealsCsv(5) });
    const r = await spawnCli(['validate', '--resource', 'deal', '--emit', '/dev/full', join(dir, 'deals.csv')]);
    expect(r.code).toBe(2);
    noStack(r.stderr);
    expect(r.stderr).toMatch(/^error: cannot write --emit \/dev\/full: the disk is full \(ENOSPC\)$/m);
    expect(r.stdout).toMatch(/5 valid|valid: 5|5 rows/i);
    expect(r.stderr).toMatch(/batch-sync validate: run \S+ FAILED exit=2 /);
    expect(r.stderr).not.toMatch(/OK exit=0/);
  },
);

test.each([
  [
    'a directory',
    (dir: string) => {
      mkdirSync(join(dir, 'out'));
      return join(dir, 'out');
    },
    /a directory has that name \(EISDIR\)/,
  ],
  ['a missing folder', (dir: string) => join(dir, 'no-such-folder', 'out.ndjson'), /the directory does not exist \(ENOENT\)/],
])('--emit to %s: exit 2 before anything is read or sent, one line naming it', async (_what, target, why) => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(5) });
  const out = target(dir);
  for (const args of [
    ['validate', '--resource', 'deal', '--emit', out, join(dir, 'deals.csv')],
    ['push', '--dry-run', '--resource', 'deal', '--emit', out, join(dir, 'deals.csv')],
  ]) {
    const r = await spawnCli(args, { env });
    expect(r.code).toBe(2);
    noStack(r.stderr);
    expect(r.stderr).toMatch(new RegExp(`^error: cannot write --emit ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ${why.source}$`, 'm'));
  }
});

test.runIf(existsSync('/dev/full'))('--errors /dev/full (a device, written through): exit 2 before sending, one line', async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(5) });
  const before = sandbox.batches().length;
  const r = await spawnCli(['push', '--resource', 'deal', '--errors', '/dev/full', join(dir, 'deals.csv')], { env });
  expect(r.code).toBe(2);
  noStack(r.stderr);
  expect(r.stderr).toMatch(/^error: cannot write the errors CSV \/dev\/full: /m);
  expect(sandbox.batches().length - before).toBe(0);
});

/** 1,000 rows with a bad currency (invalid, for the errors CSV) between 1,000 good ones (sent). */
function halfBadDeals(): string {
  const header = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency';
  const lines = [header];
  for (let i = 1; i <= 2000; i++)
    lines.push(`D-${i},Deal ${i} with a title long enough to fill the errors CSV quickly,ana,ana,false,${i},${i % 2 ? 'USD' : 'USX'}`);
  return lines.join('\n');
}

test("the run's report folder (--report-dir) failing while written, after sending: exit 3, the report printed, one line", async () => {
  const dir = tempFiles({
    'sales-profiles.csv': 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n',
    'deals.csv': halfBadDeals(),
  });
  const reports = join(dir, 'reports');
  const r = await spawnCli(['push', '--report-dir', reports, '--format', 'json', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env,
    shellPrefix: 'ulimit -f 64; trap "" XFSZ',
  });
  expect(r.code).toBe(3);
  noStack(r.stderr);
  expect(r.stderr).toMatch(/^error: the run's report was not written to .*reports\/\S+: .*\(EFBIG\)$/m);
  expect(JSON.parse(r.stdout).totals.accepted).toBe(1001);
  expect(r.stderr).toMatch(/batch-sync push: run \S+ ABORTED exit=3 /);
});

test('an errors CSV that fails while written, after rows were sent: exit 3, the report printed, one line, no errors file left', async () => {
  const dir = tempFiles({
    'sales-profiles.csv': 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n',
    'deals.csv': halfBadDeals(),
  });
  const errorsDir = join(dir, 'errors');
  mkdirSync(errorsDir);
  // files may not grow past 32 KiB: the errors CSV (about 150 KB) fails part-way, with EFBIG as with ENOSPC
  const r = await spawnCli(['push', '--errors', errorsDir, '--format', 'json', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env,
    shellPrefix: 'ulimit -f 64; trap "" XFSZ',
  });
  expect(r.code).toBe(3);
  noStack(r.stderr);
  expect(r.stderr).toMatch(/^error: cannot write the errors CSV .*deals\.errors\.csv: .*\(EFBIG\)$/m);
  expect(r.stderr).not.toMatch(/before anything was sent/);
  // the report is still printed, and says what the server accepted
  const report = JSON.parse(r.stdout);
  expect(report.totals.accepted).toBe(1001);
  expect(report.totals.invalid).toBe(1000);
  expect(sandbox.records('deal').filter((d) => String(d.externalId).startsWith('D-')).length).toBeGreaterThanOrEqual(1000);
  expect(r.stderr).toMatch(/batch-sync push: run \S+ ABORTED exit=3 /);
  // no half-written errors file (nor its temp file) is left behind
  expect(readdirSync(errorsDir)).toEqual([]);
});

test("an output failure after sending prints its path escaped: a newline in the report folder's name cannot forge a line", async () => {
  const dir = tempFiles({
    'sales-profiles.csv': 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n',
    'deals.csv': halfBadDeals(),
  });
  const reports = join(dir, 'reports\nOK: all rows accepted');
  const r = await spawnCli(['push', '--report-dir', reports, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env,
    shellPrefix: 'ulimit -f 64; trap "" XFSZ',
  });
  expect(r.code).toBe(3);
  noStack(r.stderr);
  expect(r.stderr).toMatch(/^error: the run's report was not written to .*reports\\nOK: all rows accepted/m);
  expect(r.stderr).not.toMatch(/^OK: all rows accepted/m);
});
