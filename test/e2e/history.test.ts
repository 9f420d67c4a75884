// `batch-sync history` over a state directory that several real pushes archived their reports in.
import { mkdirSync, writeFileSync } from 'node:fs';
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
  expect(doc.unreadable).toBe(1);
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
