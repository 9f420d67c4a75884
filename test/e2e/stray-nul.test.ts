// Issue 36: a text file is not refused whole for a few stray bytes. Real exports carry the odd NUL
// byte inside a rich-text field (a handful in hundreds of kilobytes): such a file is read as text,
// each such cell named once in a warning saying its NULs were removed, on both engines (the fast
// one reads in a worker), whether the NUL is in the bytes the reader sniffs or past them. A file
// that is mostly binary (a PNG, an .xlsx named .csv, NULs throughout) is still refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const BAD = join(import.meta.dirname, '../../fixtures/bad');
const PROFILE = join(BAD, 'profiles/id-name-account.profile.json');

test.each(['simple', 'fast'])('stray NULs in a 115 KB export: read as text on the %s engine, each cell named once, its NULs removed', async (engine) => {
  const out = tempFiles({});
  const emit = join(out, 'emitted.ndjson');
  const file = join(BAD, 'nul-in-rich-text.csv');
  const r = await spawnCli(['validate', '--engine', engine, '-p', PROFILE, '--emit', emit, file]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/ OK exit=0 read=1200 valid=1200 .* warnings=3 /);
  expect(r.stdout).toContain('nul-in-rich-text.csv:4  column "nome" held 1 NUL byte, a control character no text holds: removed');
  expect(r.stdout).toContain('nul-in-rich-text.csv:701  column "notas" held 2 NUL bytes, a control character no text holds: removed');
  expect(r.stdout).toContain('nul-in-rich-text.csv:1101  column "notas" held 1 NUL byte, a control character no text holds: removed');
  const items = readFileSync(emit, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => (JSON.parse(l) as { items: Array<{ externalId: string; name: string }> }).items);
  expect(items).toHaveLength(1200);
  expect(items.find((i) => i.externalId === '3')?.name).toBe('Acme Ltda');
  expect(readFileSync(emit, 'utf8')).not.toMatch(/\\u0000|\u0000/);
});

test.each([
  ['png-renamed.csv', 'looks binary'],
  ['xlsx-renamed.csv', 'this is an Excel workbook'],
  ['nul-bytes.csv', 'looks binary'],
])('a file that is mostly binary is still refused whole: %s', async (name, message) => {
  const r = await spawnCli(['validate', '-p', join(BAD, 'profiles/id-account.profile.json'), join(BAD, name)]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(message);
});
