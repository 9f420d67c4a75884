// Issue 36 row 9: `FILE:PROFILE` and `FILE:KIND` share their syntax with a file whose name holds a
// ':'. A file literally named `accounts.csv:deal` beside `accounts.csv` was read without a word,
// though the argument could mean either. When both readings exist the argument is refused, with one
// line saying how to write each; when only one exists it is that one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/canonical', name), 'utf8');

test('accounts.csv:deal beside accounts.csv: refused with how to say which, in validate and init', async () => {
  const dir = tempFiles({ 'accounts.csv': fixture('accounts.csv'), 'accounts.csv:deal': fixture('deals.csv') });
  for (const command of [['validate'], ['init']]) {
    const r = await spawnCli([...command, 'accounts.csv:deal'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors).toEqual([
      'error: "accounts.csv:deal" names a file, and also accounts.csv read as deal: write accounts.csv:deal:deal for the file of that name, or accounts.csv --resource deal for accounts.csv',
    ]);
  }
});

test('each reading said so is read: the file with a colon paired with its kind, and accounts.csv with --resource', async () => {
  const dir = tempFiles({ 'accounts.csv': fixture('accounts.csv'), 'accounts.csv:deal': fixture('deals.csv') });
  const colon = await spawnCli(['validate', '--format', 'json', 'accounts.csv:deal:deal'], { cwd: dir });
  expect(colon.code, colon.stdout + colon.stderr).toBe(0);
  expect(Object.keys(JSON.parse(colon.stdout).counts)).toEqual(['deal']);
  const plain = await spawnCli(['validate', '--format', 'json', 'accounts.csv'], { cwd: dir });
  expect(plain.code, plain.stderr).toBe(0);
  expect(Object.keys(JSON.parse(plain.stdout).counts)).toEqual(['account']);
});

test('one reading only: a file named with a colon alone is that file; accounts.csv:deal without such a file is accounts.csv as deal', async () => {
  const alone = tempFiles({ 'accounts.csv:deal': fixture('deals.csv') });
  const r = await spawnCli(['validate', '--resource', 'deal', 'accounts.csv:deal'], { cwd: alone });
  expect(r.code, r.stderr).toBe(0);
  const split = tempFiles({ 'accounts.csv': fixture('deals.csv') });
  const s = await spawnCli(['validate', 'accounts.csv:deal'], { cwd: split });
  expect(s.code, s.stderr).toBe(0);
});
