// Issue 25, item 6: a required field whose cell is empty names its column and the fix, not only
// "isWon: is required"; through validate the line a user reads says it too.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createMapper, parseProfile } from '../../src/map/index.js';
import { runCli } from '../helpers/cli.js';
import { row } from './helpers.js';

const profile = {
  resource: 'deal',
  fields: {
    externalId: 'Id',
    title: 'Name',
    ownerExternalId: 'OwnerId',
    agentExternalId: 'OwnerId',
    isWon: 'IsWon',
    'amount.value': 'Amount',
    'amount.currency': { const: 'USD' },
  },
};
const HEADER = ['Id', 'Name', 'OwnerId', 'IsWon', 'Amount'];

test('an empty cell of a required field: the problem names the column and says to add "default"', () => {
  const mapper = createMapper({ resource: 'deal', header: HEADER, profile: parseProfile(profile, 'deals.profile.json'), file: 'deals.csv' });
  const r = mapper.map(row({ Id: 'D-1', Name: 'One', OwnerId: 'o', IsWon: '', Amount: '10' }, 3, 'deals.csv'));
  expect(r.kind).toBe('invalid');
  if (r.kind !== 'invalid') return;
  expect(r.problems).toEqual([
    expect.objectContaining({
      field: 'isWon',
      column: 'IsWon',
      line: 3,
      reason: 'is required — column IsWon is empty: add a default to fields.isWon (e.g. default: false)',
    }),
  ]);
});

test('through validate: the report line names the field, the column and the fix; one group for the 2 rows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'required-'));
  writeFileSync(join(dir, 'deals.csv'), 'Id,Name,OwnerId,IsWon,Amount\nD-1,One,o,,10\nD-2,Two,o,1,20\nD-3,Three,o,,30\n');
  writeFileSync(join(dir, 'deals.profile.json'), JSON.stringify(profile));
  const r = await runCli(['validate', join(dir, 'deals.csv'), '--resource', 'deal']);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('2 rows: INVALID IsWon → isWon: is required — column IsWon is empty: add a default to fields.isWon (e.g. default: false)');
  expect(r.stdout).toContain('deals.csv:2  D-1  IsWon → isWon: is required — column IsWon is empty');
});

// A filled cell that a `replace` empties was reported as "column Name is empty": the user opened
// the file, saw "N/A" in it, and looked in the wrong place. The reason says the replace emptied it,
// naming the rule and its pattern; a cell that was empty keeps its own reason.
test('a filled cell a replace empties: the reason names the replace, not an empty column; one group for the rows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'required-'));
  const title = {
    column: 'Name',
    replace: [
      { pattern: '\\s+$', with: '' },
      { pattern: '^(n/?a|-)$', with: '', flags: 'i' },
    ],
  };
  writeFileSync(join(dir, 'deals.csv'), 'Id,Name,OwnerId,IsWon,Amount\nD-1,N/A,o,1,10\nD-2,Two,o,1,20\nD-3,-,o,1,30\nD-4,,o,1,40\n');
  writeFileSync(join(dir, 'deals.profile.json'), JSON.stringify({ ...profile, fields: { ...profile.fields, title } }));
  const r = await runCli(['validate', join(dir, 'deals.csv'), '--resource', 'deal']);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain(
    '2 rows: INVALID Name → title: is required — column Name held "…", which fields.title.replace[1] (/^(n/?a|-)$/i) left empty: add a default to fields.title, or change the pattern\n',
  );
  expect(r.stdout).toContain(
    'deals.csv:2  D-1  Name → title: is required — column Name held "N/A", which fields.title.replace[1] (/^(n/?a|-)$/i) left empty: add a default to fields.title, or change the pattern',
  );
  expect(r.stdout).toContain('deals.csv:5  D-4  Name → title: is required — column Name is empty: add a default to fields.title');
});
