// Repeated header names end to end with the built CLI (issue 33 item 2, issue 34 item 7, issue 36
// row 8): a Pipedrive-like export whose two custom fields share one label, as CSV (both engines) and
// as a workbook, is read, not refused: validate maps "Segmento (2)" as a profile names it, inspect
// and init show the renamed column, and the one warning reaches the report. A JSON record with a
// repeated key keeps both copies and says so once.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs module without types
import { writeWorkbook } from '../../fixtures/xlsx/xlsx-writer.mjs';
import { spawnCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'repeated-names-'));
const HEADER = ['ID', 'Nome', 'Segmento', 'Porte', 'Segmento'];
const ROWS = [
  ['1', 'Acme', 'Varejo', 'Grande', 'Premium'],
  ['2', 'Beta', 'Indústria', 'Pequeno', 'Básico'],
];
const csv = join(dir, 'organizacoes.csv');
writeFileSync(csv, [HEADER, ...ROWS].map((r) => r.join(',')).join('\n') + '\n');
const xlsx = join(dir, 'organizacoes.xlsx');
await writeWorkbook(xlsx, [{ name: 'Organizações', rows: [HEADER, ...ROWS] }]);

const profile = join(dir, 'accounts.profile.json');
writeFileSync(
  profile,
  JSON.stringify({
    resource: 'account',
    fields: { externalId: 'ID', name: 'Nome', type: { const: 'COMPANY' } },
    customFields: [
      { key: 'segmento', name: 'Segmento', type: 'string', column: 'Segmento' },
      { key: 'segmento_2', name: 'Segmento', type: 'string', column: 'Segmento (2)' },
    ],
  }),
);

const emitted = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => (JSON.parse(l) as { items: { externalId: string; customFields: unknown }[] }).items);

describe.each([
  ['CSV', 'simple', csv, 'column 5'],
  ['CSV', 'fast', csv, 'column 5'],
  ['workbook', 'simple', xlsx, 'column E'],
  ['workbook', 'fast', xlsx, 'column E'],
])('%s (%s engine)', (_what, engine, file, column) => {
  test('validate maps "Segmento (2)" as the profile names it, every row valid, the warning in the report', async () => {
    const emit = join(dir, `emitted-${engine}-${_what}.ndjson`);
    const r = await spawnCli(['validate', '--format', 'json', '-p', profile, '--emit', emit, file], { env: { BATCH_SYNC_ENGINE: engine } });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.totals).toMatchObject({ read: 2, accepted: 2, invalid: 0 });
    expect(JSON.stringify(report.warnings)).toContain(
      `1 column name repeats; the later copies are read as \\"Segmento (2)\\" (${column}): a profile names them so`,
    );
    const items = emitted(emit);
    expect(items.map((i) => i.customFields)).toEqual([
      expect.arrayContaining([expect.objectContaining({ key: 'segmento', value: 'Varejo' }), expect.objectContaining({ key: 'segmento_2', value: 'Premium' })]),
      expect.arrayContaining([
        expect.objectContaining({ key: 'segmento', value: 'Indústria' }),
        expect.objectContaining({ key: 'segmento_2', value: 'Básico' }),
      ]),
    ]);
  });
});

test('the errors CSV names the copy as read, so fed back through the same profile it maps the same column', async () => {
  const file = join(dir, 'com-erro.csv');
  writeFileSync(file, `${HEADER.join(',')}\n,Sem id,Varejo,Grande,Premium\n`);
  const errors = join(dir, 'com-erro.errors.csv');
  const r = await spawnCli(['validate', '-p', profile, '--errors', errors, file]);
  expect(r.code, r.stderr).toBe(1);
  const written = readFileSync(errors, 'utf8').replace(/^\uFEFF/, '');
  expect(written.split('\n')[0]).toMatch(/^ID,Nome,Segmento,Porte,Segmento \(2\),_line,/);
  // the id filled in, as a user fixes the row; the file's own header has no repeat now
  writeFileSync(errors, written.replace(/\n,Sem id,/, '\n9,Sem id,'));
  const emit = join(dir, 'com-erro.ndjson');
  const again = await spawnCli(['validate', '--format', 'json', '-p', profile, '--emit', emit, errors]);
  expect(again.code, again.stderr).toBe(0);
  expect(JSON.parse(again.stdout).warnings).toEqual([]);
  expect(emitted(emit)[0]!.customFields).toEqual(
    expect.arrayContaining([expect.objectContaining({ key: 'segmento', value: 'Varejo' }), expect.objectContaining({ key: 'segmento_2', value: 'Premium' })]),
  );
});

test.each([
  ['CSV', csv],
  ['workbook', xlsx],
])('inspect %s shows the renamed column and the warning; --format json names it', async (_what, file) => {
  const r = await spawnCli(['inspect', file]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^ {2}(E {2})?Segmento \(2\) +text +Premium, Básico$/m);
  expect(r.stdout).toContain('1 column name repeats; the later copies are read as "Segmento (2)"');
  const json = await spawnCli(['inspect', '--format', 'json', file]);
  expect(JSON.parse(json.stdout).columns.map((c: { name: string }) => c.name)).toEqual(['ID', 'Nome', 'Segmento', 'Porte', 'Segmento (2)']);
});

test('init reads the file instead of refusing it (exit 2 before), and the profile it writes validates', async () => {
  const out = join(dir, 'init.profile.json');
  const r = await spawnCli(['init', csv, '--resource', 'account', '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('1 column name repeats; the later copies are read as "Segmento (2)" (column 5)');
  expect(JSON.parse(readFileSync(out, 'utf8')).customFields).toContainEqual(expect.objectContaining({ column: 'Segmento (2)' }));
  const v = await spawnCli(['validate', '--format', 'json', '-p', out, csv]);
  expect(v.code, v.stderr).toBe(0);
  expect(JSON.parse(v.stdout).totals).toMatchObject({ read: 2, accepted: 2 });
});

describe.each(['simple', 'fast'])('a JSON record with a repeated key (%s engine)', (engine) => {
  const file = join(dir, `contas-${engine}.json`);
  writeFileSync(file, '[\n{"externalId":"A0","name":"ok","type":"COMPANY"},\n{"externalId":"A1","name":"x","type":"COMPANY","externalId":"A2"}\n]\n');
  const warning = {
    file,
    line: 3,
    reason: 'the record on line 3 repeats the key "externalId": its later copy is read as "externalId (2)" (a JSON parser keeps only the last)',
  };

  test('without a profile: one warning naming the first record, and the copy is an unknown field, so that row is invalid (before: A2 sent without a word)', async () => {
    const r = await spawnCli(['validate', '--format', 'json', '--resource', 'account', file], { env: { BATCH_SYNC_ENGINE: engine } });
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.warnings).toEqual([expect.objectContaining(warning)]);
    expect(report.totals).toMatchObject({ read: 2, accepted: 1, invalid: 1 });
    expect(report.notAccepted).toEqual([
      expect.objectContaining({ line: 3, externalId: 'A1', detail: expect.stringContaining('unknown field "externalId (2)"') }),
    ]);
  });

  test('through a profile: the first copy is the key, both rows valid, the same warning', async () => {
    const jsonProfile = join(dir, `contas-${engine}.profile.json`);
    writeFileSync(jsonProfile, JSON.stringify({ resource: 'account', fields: { externalId: 'externalId', name: 'name', type: { const: 'COMPANY' } } }));
    const emit = join(dir, `contas-${engine}.ndjson`);
    const r = await spawnCli(['validate', '--format', 'json', '-p', jsonProfile, '--emit', emit, file], { env: { BATCH_SYNC_ENGINE: engine } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toEqual([expect.objectContaining(warning)]);
    expect(emitted(emit).map((i) => i.externalId)).toEqual(['A0', 'A1']);
  });
});
