// A CSV export whose lines were written by different clients, some in UTF-8 and some in
// Windows-1252 (a vTiger/MySQL export): each line is read in its own encoding on both engines, so
// the items sent hold "é" for both kinds of lines, and one warning per file says so in validate,
// inspect and init; init writes no encoding that would force one on the whole file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const WARNING =
  'mixed encodings: 2 lines are not UTF-8 and were read as windows-1252 (first: line 3); the others as UTF-8 — give --encoding to read the whole file one way';

function accounts(): string {
  const dir = tempFiles({});
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  const cp1252 = (s: string) => iconv.encode(s, 'windows-1252');
  // many rows, so the fast engine's worker reads more than one chunk
  const more = Array.from({ length: 3000 }, (_, i) => `u${i},Café é ${i},COMPANY\n`).join('');
  const bytes = Buffer.concat([utf8('externalId,name,type\nu,Café é,COMPANY\n'), cp1252('w,Café é,COMPANY\r\n'), utf8(more), cp1252('w2,"Café é",COMPANY\n')]);
  writeFileSync(join(dir, 'accounts.csv'), bytes);
  writeFileSync(join(dir, 'accounts.profile.json'), JSON.stringify({ resource: 'account', fields: { externalId: 'externalId', name: 'name', type: 'type' } }));
  return dir;
}

describe.each(['simple', 'fast'])('a file of UTF-8 and Windows-1252 lines (%s engine)', (engine) => {
  const env = { BATCH_SYNC_ENGINE: engine };

  it('validate --emit: every name reads "Café é", and the warning is given once', async () => {
    const dir = accounts();
    const r = await spawnCli(['validate', '--format', 'json', '-p', 'accounts.profile.json', '--emit', 'out.ndjson', 'accounts.csv'], { cwd: dir, env });
    expect(r.code).toBe(0);
    const batches = readFileSync(join(dir, 'out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const items: { name: string }[] = batches.flatMap((b) => b.items);
    expect(items).toHaveLength(3003);
    const names = new Set(items.map((i) => i.name.replace(/ \d+$/, '')));
    expect([...names]).toEqual(['Café é']);
    const report = JSON.parse(r.stdout);
    expect(report.warnings.filter((w: { reason: string }) => w.reason.includes('encoding'))).toEqual([
      expect.objectContaining({ file: 'accounts.csv', reason: WARNING }),
    ]);
  });

  it('the human report names the file once', async () => {
    const dir = accounts();
    const r = await spawnCli(['validate', '-p', 'accounts.profile.json', 'accounts.csv'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout.split(`accounts.csv  ${WARNING}`)).toHaveLength(2);
  });
});

it('inspect shows the warning, and init writes no encoding that reads the whole file one way', async () => {
  const dir = accounts();
  const inspect = await spawnCli(['inspect', 'accounts.csv'], { cwd: dir });
  expect(inspect.code).toBe(0);
  expect(inspect.stdout).toContain('mixed encodings (in the part read): 2 lines are not UTF-8');
  expect(inspect.stdout).toContain('Café é');
  expect(inspect.stdout).not.toContain('Ã');
  const init = await spawnCli(['init', 'accounts.csv', '--resource', 'account', '--out', 'init.profile.json'], { cwd: dir });
  expect(init.code).toBe(0);
  const profile = JSON.parse(readFileSync(join(dir, 'init.profile.json'), 'utf8'));
  expect(profile.reader?.encoding).toBeUndefined();
  expect(init.stdout + init.stderr).not.toContain('Ã');
});

it('init on a windows-1252 export whose UTF-8 lines come past the first 64 KiB (vTiger companies) writes no encoding, so the profile reads both', async () => {
  const dir = tempFiles({});
  const rows = Array.from({ length: 3000 }, (_, i) => `c${i},Compañía ${i},COMPANY\n`).join('');
  const bytes = Buffer.concat([iconv.encode(`externalId,name,type\n${rows}`, 'windows-1252'), Buffer.from('u,Compañía é,COMPANY\n', 'utf8')]);
  expect(bytes.length).toBeGreaterThan(64 * 1024);
  writeFileSync(join(dir, 'accounts.csv'), bytes);
  const init = await spawnCli(['init', 'accounts.csv', '--resource', 'account', '--out', 'init.profile.json'], { cwd: dir });
  expect(init.code).toBe(0);
  const profile = JSON.parse(readFileSync(join(dir, 'init.profile.json'), 'utf8'));
  expect(profile.reader?.encoding).toBeUndefined();
  const r = await spawnCli(['validate', '-p', 'init.profile.json', '--emit', 'out.ndjson', 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(0);
  const names = readFileSync(join(dir, 'out.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .flatMap((l) => JSON.parse(l).items.map((i: { name: string }) => i.name));
  expect(names.at(0)).toBe('Compañía 0');
  expect(names.at(-1)).toBe('Compañía é');
});
