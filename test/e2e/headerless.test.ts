// A CSV with no header row (MySQL `SELECT … INTO OUTFILE`, as a vTiger CRM export was found): its
// first line holds values, so no line qualifies as the header. It used to be read with that data row
// as its header, without a word: init proposed column names and custom fields from its values, and
// every command lost the row. init now refuses it, naming the file, line 1 and its values; validate
// reads it as before, with a warning that says so (and, when columns are then missing, under the error).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { expectOneLineError } from './bad-input-checks.js';

const POTENTIALS = [
  '100,"Proyecto X",179500.00000000,2019-03-04 10:22:11,Closed Lost,rcorrales,rcorrales@ebdpanama.com,10.000,66788214',
  '101,"Proyecto Y",25000.00000000,2019-04-11 09:00:00,Closed Won,jperez,jperez@ebdpanama.com,90.000,66788215',
  '102,"Proyecto Z",1200.50000000,2019-05-20 16:45:30,Prospecting,rcorrales,rcorrales@ebdpanama.com,20.000,66788216',
].join('\n');
const VALUES = 'line 1 holds values: "100", "179500.00000000", "2019-03-04 10:22:11"';

test('init on a file with no header row: exit 2, one line naming the file, line 1 and its values; no profile written', async () => {
  const dir = tempFiles({ 'potentials.csv': POTENTIALS });
  const r = await spawnCli(['init', 'potentials.csv', '--resource', 'deal', '--out', 'deals.profile.json'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(expectOneLineError(r.stderr, 'potentials.csv:1: ')).toBe(
    `potentials.csv:1: the file has no header row (${VALUES}): add a line of column names as line 1 (a profile names columns by name, not by position)`,
  );
  expect(r.stderr).toMatch(/^ {2}if line 1 is the header: \S*batch-sync\.js init potentials\.csv --header-row 1$/m);
  expect(existsSync(join(dir, 'deals.profile.json'))).toBe(false);
}, 30_000);

test('validate on a file with no header row: a warning naming the file and line 1; the missing columns error says it too', async () => {
  const warning = `the file has no header row: ${VALUES}; it is read as the header, so its row is not read as data: add a line of column names as line 1 (if line 1 is the header, set --header-row 1 or reader.headerRow: 1)`;
  // a profile the old init proposed from that data row: its columns are the row's values
  const fields = {
    externalId: '100',
    title: 'Proyecto X',
    ownerExternalId: 'rcorrales',
    agentExternalId: 'rcorrales',
    isWon: { column: 'Closed Lost', map: { 'Closed Won': true }, otherwise: false },
    'amount.value': '179500.00000000',
    'amount.currency': { const: 'USD' },
  };
  const profile = { resource: 'deal', fields };
  const dir = tempFiles({ 'potentials.csv': POTENTIALS, 'deals.profile.json': JSON.stringify(profile) });
  const json = await spawnCli(['validate', '--format', 'json', '-p', 'deals.profile.json', 'potentials.csv'], { cwd: dir });
  const report = JSON.parse(json.stdout);
  expect(report.warnings.map((w: { file: string; line: number | null; reason: string }) => ({ file: w.file, line: w.line, reason: w.reason }))).toContainEqual({
    file: 'potentials.csv',
    line: 1,
    reason: warning,
  });
  expect(report.counts.deal.read).toBe(2);

  const bare = await spawnCli(['validate', 'potentials.csv', '--resource', 'deal'], { cwd: dir });
  expect(bare.code).toBe(2);
  expectOneLineError(bare.stderr, '');
  expect(bare.stderr).toContain(`  ${warning}`);
}, 30_000);
