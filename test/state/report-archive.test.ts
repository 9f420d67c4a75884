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
