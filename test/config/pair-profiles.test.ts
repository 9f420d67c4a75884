import { expect, test } from 'vitest';
import { pairProfiles, siblingProfile, splitFileArgument } from '../../src/config/pair-profiles.js';

const none = () => false;

test.each([
  ['deals.csv:deals.profile.json', { file: 'deals.csv', profile: 'deals.profile.json' }],
  ['a/b.csv:p/x.JSON', { file: 'a/b.csv', profile: 'p/x.JSON' }],
  ['C:\\data\\deals.csv', { file: 'C:\\data\\deals.csv' }],
  ['C:\\data\\deals.json', { file: 'C:\\data\\deals.json' }],
  ['C:\\data\\deals.csv:C:\\p\\deals.profile.json', { file: 'C:\\data\\deals.csv', profile: 'C:\\p\\deals.profile.json' }],
  ['deals.csv:D:p.json', { file: 'deals.csv', profile: 'D:p.json' }],
  ['deals.csv:notes.txt', { file: 'deals.csv:notes.txt' }],
  ['deals.csv:', { file: 'deals.csv:' }],
  [':p.json', { file: ':p.json' }],
  // FILE:KIND, as init takes it: any name --resource takes
  ['failed.csv:deal', { file: 'failed.csv', kind: 'deal' }],
  ['failed.deals.csv:sales-profiles', { file: 'failed.deals.csv', kind: 'sales-profile' }],
  ['a/users.csv:Users', { file: 'a/users.csv', kind: 'sales-profile' }],
  ['C:\\out\\failed.csv:account', { file: 'C:\\out\\failed.csv', kind: 'account' }],
  ['failed.csv:dael', { file: 'failed.csv:dael' }],
  ['C:deal', { file: 'C:deal' }],
  ['deals.csv:sales-profile', { file: 'deals.csv', kind: 'sales-profile' }],
  ['deals.csv:users', { file: 'deals.csv', kind: 'sales-profile' }],
  ['C:\\data\\deals.csv:deal', { file: 'C:\\data\\deals.csv', kind: 'deal' }],
  ['deals.csv:dealz', { file: 'deals.csv:dealz' }],
  ['deal', { file: 'deal' }],
])('%s', (arg, expected) => {
  expect(splitFileArgument(arg, none)).toEqual(expected);
});

test('an argument that names an existing file is never split', () => {
  expect(splitFileArgument('x.csv:y.json', (p) => p === 'x.csv:y.json')).toEqual({ file: 'x.csv:y.json' });
  expect(splitFileArgument('x.csv:deal', (p) => p === 'x.csv:deal')).toEqual({ file: 'x.csv:deal' });
});

test('an argument both a file and a pairing of files that exist is refused, saying how to write each (issue 36 row 9)', () => {
  const all = () => true;
  expect(() => splitFileArgument('x.csv:deal', all)).toThrow(
    '"x.csv:deal" names a file, and also x.csv read as deal: write x.csv:deal:deal for the file of that name, or x.csv --resource deal for x.csv',
  );
  expect(() => splitFileArgument('x.csv:y.json', all)).toThrow(
    '"x.csv:y.json" names a file, and also x.csv with the profile y.json: write x.csv:y.json:KIND for the file of that name, or x.csv --profile y.json for x.csv',
  );
  // the profile missing: one reading only
  expect(splitFileArgument('x.csv:y.json', (p) => p !== 'y.json')).toEqual({ file: 'x.csv:y.json' });
});

test('a file paired with its kind still takes the profile beside it or the one --profile', () => {
  expect(pairProfiles(['a.csv:deal', 'b.csv'], ['p.json'])).toEqual([
    { file: 'a.csv', kind: 'deal', profile: 'p.json' },
    { file: 'b.csv', profile: 'p.json' },
  ]);
});

test('the profile beside a file is where init writes it', () => {
  expect(siblingProfile('exports/deals.csv')).toBe('exports/deals.profile.json');
  expect(siblingProfile('vendedores.CSV')).toBe('vendedores.profile.json');
  expect(siblingProfile('x.profile.json')).toBeUndefined();
});

test('FILE:KIND takes <name>.<kind>.profile.json beside the file, else <name>.profile.json, else none', () => {
  const onDisk = new Set(['x/deals.sales-profile.profile.json', 'x/deals.profile.json']);
  const isFile = (p: string) => onDisk.has(p);
  // pairProfiles reads the disk through resolvePath's result
  const paired = (args: string[]) => pairProfiles(args, [], (p) => p, isFile);
  expect(paired(['x/deals.csv:sales-profile', 'x/deals.csv:deal'])).toEqual([
    { file: 'x/deals.csv', kind: 'sales-profile', profile: 'x/deals.sales-profile.profile.json', beside: true },
    { file: 'x/deals.csv', kind: 'deal', profile: 'x/deals.profile.json', beside: true },
  ]);
  expect(paired(['y/deals.csv:account'])).toEqual([{ file: 'y/deals.csv', kind: 'account' }]);
});
