import { expect, test } from 'vitest';
import { siblingProfile, splitFileProfile } from '../../src/config/pair-profiles.js';

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
])('%s', (arg, expected) => {
  expect(splitFileProfile(arg, none)).toEqual(expected);
});

test('an argument that names an existing file is never split', () => {
  expect(splitFileProfile('x.csv:y.json', (p) => p === 'x.csv:y.json')).toEqual({ file: 'x.csv:y.json' });
});

test('the profile beside a file is where init writes it', () => {
  expect(siblingProfile('exports/deals.csv')).toBe('exports/deals.profile.json');
  expect(siblingProfile('vendedores.CSV')).toBe('vendedores.profile.json');
  expect(siblingProfile('x.profile.json')).toBeUndefined();
});
