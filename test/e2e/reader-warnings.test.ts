// File-level reader warnings (a guessed encoding, title rows skipped, unnamed columns, names that
// differ only by case) reach every report a user reads: the human report, --format json and the
// warnings= count of the summary line, each naming the file and, where it has one, the line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

function accounts(): string {
  const dir = tempFiles({});
  const text = ['Export of 2026-11-20', 'externalId,name,,Name,type', 'acme,Café Acme,x,acme,COMPANY', 'beta,Beta,,beta,COMPANY', ''].join('\r\n');
  // "é" as one Windows-1252 byte: not UTF-8
  writeFileSync(join(dir, 'accounts.csv'), Buffer.from(text, 'latin1'));
  writeFileSync(join(dir, 'accounts.profile.json'), JSON.stringify({ resource: 'account', fields: { externalId: 'externalId', name: 'name', type: 'type' } }));
  return dir;
}

const EXPECTED = [
  { line: null, reason: 'not valid UTF-8: read as Windows-1252 (pass --encoding to choose another)' },
  {
    line: 2,
    reason:
      'the header is line 2, the first row whose names cover the 5 columns of the rows below it; passed over line 1 above it (set the header row, --header-row or reader.headerRow, to choose another)',
  },
  { line: 2, reason: 'column 3 has no name in the header; called it "column_3"' },
  { line: 2, reason: 'columns "name" (2) and "Name" (4) differ only by case or accents; kept as two columns' },
];

test('file-level warnings reach --format json, the counts and the summary line', async () => {
  const dir = accounts();
  const r = await spawnCli(['validate', '--format', 'json', '-p', 'accounts.profile.json', 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  const warnings = report.warnings.map((w: { file: string; line: number | null; reason: string }) => ({ file: w.file, line: w.line, reason: w.reason }));
  for (const e of EXPECTED) expect(warnings).toContainEqual({ file: 'accounts.csv', ...e });
  expect(report.counts.account).toMatchObject({ read: 2, accepted: 2, warnings: 4 });
  expect(report.totals.warnings).toBe(4);
  expect(r.stderr.trim().split('\n').at(-1)).toMatch(/ warnings=4 /);
});

test('file-level warnings are listed in the human report with file and line', async () => {
  const dir = accounts();
  const r = await spawnCli(['validate', '-p', 'accounts.profile.json', 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Warnings (4)');
  expect(r.stdout).toContain('accounts.csv  not valid UTF-8: read as Windows-1252');
  expect(r.stdout).toContain('accounts.csv:2  column 3 has no name in the header; called it "column_3"');
  expect(r.stdout).toContain('accounts.csv:2  the header is line 2, the first row whose names cover the 5 columns of the rows below it; passed over line 1');
  expect(r.stderr).toMatch(/ warnings=4 /);
});

test('a warning found while reading (a header and no rows) is reported, with the read worker too', async () => {
  const dir = tempFiles({ 'accounts.csv': 'externalId,name,type\n' });
  for (const engine of ['simple', 'auto', 'fast']) {
    const r = await spawnCli(['validate', '--format', 'json', 'accounts.csv'], { cwd: dir, env: { BATCH_SYNC_ENGINE: engine } });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.warnings).toContainEqual(expect.objectContaining({ file: 'accounts.csv', line: 1, reason: 'has a header but no rows' }));
    expect(report.totals.warnings).toBe(1);
  }
});
