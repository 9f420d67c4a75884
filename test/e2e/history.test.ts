// `batch-sync history` over a state directory that several real pushes archived their reports in.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const accounts = (n: number, bad: number) => {
  const lines = ['externalId,name,type'];
  for (let i = 1; i <= n; i++) lines.push(`A-${i},${i <= bad ? '' : `Account ${i}`},COMPANY`);
  return lines.join('\n');
};

test('history lists the archived runs oldest first, with bars, sparklines and the exit codes; --last and --format json', async () => {
  const dir = tempFiles({});
  const runs: Array<[number, number]> = [
    [10, 0],
    [10, 3],
    [20, 0],
  ];
  for (const [n, bad] of runs) {
    writeFileSync(join(dir, 'accounts.csv'), accounts(n, bad));
    const r = await spawnCli(['push', '--sandbox', '--quiet', '--state-dir', 'state', '--full', 'accounts.csv'], { cwd: dir });
    expect(r.code).toBe(bad ? 1 : 0);
  }
  // a folder named like a run whose report is not one: said, not fatal
  mkdirSync(join(dir, 'state', 'reports', '20000101T000000Z-abcd'));
  writeFileSync(join(dir, 'state', 'reports', '20000101T000000Z-abcd', 'report.json'), '{"not": "a report"}');

  const r = await spawnCli(['history', '--state-dir', 'state'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  expect(lines[0]).toMatch(/^batch-sync history: 3 runs in .*state\/reports, oldest first$/);
  const table = lines.filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}push/.test(l));
  expect(table).toHaveLength(3);
  // read, accepted, rejected, invalid, skipped, exit, then the bar scaled to the largest run (20 rows = 30 cells)
  expect(table[0]).toMatch(/push\s+\d+\.\ds\s+10\s+10\s+0\s+0\s+0\s+0 {2}█{15}$/);
  expect(table[1]).toMatch(/push\s+\d+\.\ds\s+10\s+7\s+0\s+3\s+0\s+1 {2}█{11}░{5}$/);
  expect(table[2]).toMatch(/push\s+\d+\.\ds\s+20\s+20\s+0\s+0\s+0\s+0 {2}█{30}$/);
  expect(r.stdout).toMatch(/^duration {6}[▁-█]{3} {2}\d+\.\ds … \d+\.\ds$/m);
  expect(r.stdout).toContain('not accepted  ▁█▁  0 … 3 rows');
  expect(r.stdout).toContain('1 report file is not readable as a run report and left out.');

  const json = await spawnCli(['history', '--state-dir', 'state', '--last', '2', '--format', 'json'], { cwd: dir });
  expect(json.code).toBe(0);
  const doc = JSON.parse(json.stdout);
  expect(doc.runs.map((x: { read: number; notAccepted: number; exitCode: number }) => [x.read, x.notAccepted, x.exitCode])).toEqual([
    [10, 3, 1],
    [20, 0, 0],
  ]);
  expect(doc.runs[0]).toMatchObject({ mode: 'push', accepted: 7, invalid: 3, aborted: null });
  // the reports are read newest first until 2 runs are found: the unreadable oldest one is never opened
  expect(doc.unreadable).toBe(0);
});

test('history of a state directory that archived nothing: exit 2 when it does not exist, a line when it is empty', async () => {
  const dir = tempFiles({});
  const missing = await spawnCli(['history', '--state-dir', 'nowhere'], { cwd: dir });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/error: no report directory at .*nowhere\/reports/);
  mkdirSync(join(dir, 'empty', 'reports'), { recursive: true });
  const empty = await spawnCli(['history', '--state-dir', 'empty'], { cwd: dir });
  expect(empty.code).toBe(0);
  expect(empty.stdout).toMatch(/^No archived runs in .*empty\/reports\.$/m);
});

/** A report.json as a push archives it (render-json.ts's shape, exitCode last), its rows listed in between. */
function reportJson(runId: string, read: number, listed = 0): string {
  const head = {
    version: 1,
    runId,
    mode: 'push',
    startedAt: '2026-11-22T02:15:01.000Z',
    endedAt: '2026-11-22T02:15:13.300Z',
    aborted: null,
    counts: { account: { read, accepted: read - listed, rejected: listed, invalid: 0, skipped: 0, warnings: 0 } },
    totals: { read, accepted: read - listed, rejected: listed, invalid: 0, skipped: 0, warnings: 0 },
    groups: [{ resource: 'account', outcome: 'rejected', reason: 'VALIDATION_ERROR "name" is required', count: listed, examples: [] }],
  };
  return `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "notAccepted": [`;
}
const ROW = `\n    {"file":"accounts.csv","line":2,"resource":"account","externalId":"A-1","outcome":"rejected","field":"name","column":null,"message":"VALIDATION_ERROR","detail":"${'a name with \\"quotes\\" and {braces} ['.repeat(4)}","batchId":"b-1"}`;
const TAIL = '\n  ],\n  "notListed": 0,\n  "warnings": [],\n  "exitCode": 1\n}\n';

// issue 28 item 5: history blocked for ever on a report.json that is a FIFO, read /dev/zero through a
// link until memory ran out, and read a 310 MB report whole (1 GB peak). The spawned CLI has a watchdog.
test('history refuses a report.json that is a FIFO or a link to /dev/zero, naming it, and shows the other runs', async () => {
  const reports = join(tempFiles({}), 'state', 'reports');
  const folder = (id: string) => {
    mkdirSync(join(reports, id), { recursive: true });
    return join(reports, id, 'report.json');
  };
  writeFileSync(folder('20261122T021501Z-aaaa'), `${reportJson('20261122T021501Z-aaaa', 8950, 1)}${ROW}${TAIL}`);
  const fifo = folder('20261123T021501Z-bbbb');
  execFileSync('mkfifo', [fifo]);
  const zero = folder('20261124T021501Z-cccc');
  symlinkSync('/dev/zero', zero);
  const r = await spawnCli(['history', '--report-dir', reports], { timeoutMs: 20_000 });
  expect(r.signal ?? null, 'ended on its own').toBeNull();
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^batch-sync history: 1 run in /m);
  expect(r.stdout).toMatch(/push\s+12\.3s\s+8950\s+8949\s+1\s+0\s+0\s+1 /);
  expect(r.stderr).toContain(`warning: ${fifo}: it is a FIFO, not a regular file; left out`);
  expect(r.stderr).toContain(`warning: ${zero}: it is a device, not a regular file; left out`);
});

test('history reads a 100 MB report.json in bounded memory (a 48 MB heap), its exit code after the rows', async () => {
  const reports = join(tempFiles({}), 'reports');
  mkdirSync(join(reports, '20261122T021501Z-aaaa'), { recursive: true });
  const path = join(reports, '20261122T021501Z-aaaa', 'report.json');
  const rows = Math.ceil((100 * 1024 * 1024) / ROW.length);
  const fd = openSync(path, 'w');
  writeSync(fd, reportJson('20261122T021501Z-aaaa', rows + 10, rows));
  const chunk = Array.from({ length: 1000 }, () => ROW).join(',');
  for (let i = 0; i < rows / 1000; i++) writeSync(fd, i === 0 ? chunk.slice(0) : `,${chunk}`);
  writeSync(fd, TAIL);
  closeSync(fd);
  const r = await spawnCli(['history', '--report-dir', reports, '--format', 'json'], { timeoutMs: 120_000, env: { NODE_OPTIONS: '--max-old-space-size=48' } });
  expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
  const doc = JSON.parse(r.stdout);
  expect(doc.runs).toHaveLength(1);
  expect(doc.runs[0]).toMatchObject({ read: rows + 10, rejected: rows, exitCode: 1 });
});

test('history leaves out a report.json over its 1 GiB cap without reading it, naming it', async () => {
  const reports = join(tempFiles({}), 'reports');
  mkdirSync(join(reports, '20261122T021501Z-aaaa'), { recursive: true });
  const path = join(reports, '20261122T021501Z-aaaa', 'report.json');
  writeFileSync(path, reportJson('20261122T021501Z-aaaa', 1));
  // sparse: 1.5 GiB of nothing on disk
  truncateSync(path, 1536 * 1024 * 1024);
  const r = await spawnCli(['history', '--report-dir', reports], { timeoutMs: 20_000 });
  expect(r.signal ?? null).toBeNull();
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(`warning: ${path}: 1.5 GiB, over the 1 GiB a run report can have; left out`);
  expect(r.stdout).toMatch(/^No archived runs in /m);
});
