// The run's report folder (issue 28 item 1): a report.json or summary.txt that is already there and
// is not a regular file (a FIFO, a link to a device) is refused, never renamed over or written through.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { writeRunReport } from '../../src/state/report-archive.js';

test('a FIFO where report.json belongs, a symlink to /dev/null where summary.txt belongs: refused, both left as they were', () => {
  const fifoDir = mkdtempSync(join(tmpdir(), 'report-archive-'));
  execFileSync('mkfifo', [join(fifoDir, 'report.json')]);
  expect(() => writeRunReport(fifoDir, { json: '{}', summary: 'x' })).toThrow(/it is a FIFO, not a regular file/);
  expect(lstatSync(join(fifoDir, 'report.json')).isFIFO()).toBe(true);

  const linkDir = mkdtempSync(join(tmpdir(), 'report-archive-'));
  symlinkSync('/dev/null', join(linkDir, 'summary.txt'));
  expect(() => writeRunReport(linkDir, { json: '{}', summary: 'x' })).toThrow(/it is a device, not a regular file/);
  expect(readlinkSync(join(linkDir, 'summary.txt'))).toBe('/dev/null');
});

test('runs within one second keep their order when a report page is written into the older one later: history lists it oldest, --keep-reports prunes it first', async () => {
  const { mkdirSync, readdirSync, utimesSync, writeFileSync } = await import('node:fs');
  const { pruneReports, readRunReports } = await import('../../src/state/report-archive.js');
  const dir = mkdtempSync(join(tmpdir(), 'report-archive-'));
  // three runs in one second, named so that name order is not run order
  const runs = ['20261128T232238Z-ffff', '20261128T232238Z-0000', '20261128T232238Z-8888'];
  const t0 = Date.now() / 1000 - 3600;
  runs.forEach((run, i) => {
    mkdirSync(join(dir, run));
    for (const f of ['report.json', 'summary.txt']) {
      writeFileSync(join(dir, run, f), '{}');
      utimesSync(join(dir, run, f), t0 + i, t0 + i);
    }
    utimesSync(join(dir, run), t0 + i, t0 + i);
  });
  // `batch-sync report RUN --html RUN/report.html`, an hour later, into the oldest run's folder
  writeFileSync(join(dir, runs[0]!, 'report.html'), '<html></html>');
  expect([...readRunReports(dir, [])].map((r) => r.runId)).toEqual([...runs].reverse());
  expect(pruneReports(dir, 2, runs[2]!)).toEqual([runs[0]]);
  expect(readdirSync(dir).sort()).toEqual([runs[1], runs[2]].sort());
});
