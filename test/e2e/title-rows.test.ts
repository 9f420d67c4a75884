// Issue 29.8 end to end with the built CLI: a CRM report export with a title, a "Generado el | date"
// row and a blank row above its 11-column header (fixtures/es-reporte: as typed, as Excel saves
// CSV, and as LibreOffice Calc saved the workbook). init finds the real header, says which row it
// took and what it passed over, and writes a profile that needs no edit: validate with it accepts
// every row. A header row asked for that leaves no data rows is refused by init, naming the row
// that looks like the header; validate's error about the missing columns says the same.
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { expectOneLineError } from './bad-input-checks.js';

function copied(name: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'title-rows-'));
  copyFileSync(join('fixtures/es-reporte', name), join(dir, name));
  return { dir, file: join(dir, name) };
}

test.each([
  ['oportunidades.csv', 'line'],
  ['oportunidades-excel.csv', 'line'],
  ['oportunidades.xlsx', 'row'],
])(
  'init %s: the profile comes from the real header (%s 4) and needs no edit; validate with it: all 12 rows valid',
  async (name, unit) => {
    const { dir, file } = copied(name);
    const profile = join(dir, 'deals.profile.json');
    const init = await spawnCli(['init', file, '--resource', 'deal', '--out', profile]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`wrote ${profile} (deal, proposed from all 12 rows of ${file}; header on ${unit} 4)`);
    expect(init.stdout).toContain(
      `${file}:4  the header is ${unit} 4, the first row whose names cover the 11 columns of the rows below it; passed over ${unit}s 1–3 above it`,
    );
    expect(init.stdout).not.toContain('fill in');
    expect(init.stdout).not.toContain('FILL IN');
    const written = JSON.parse(readFileSync(profile, 'utf8'));
    expect(written.reader.headerRow).toBe(4);
    expect(written.fields.externalId).toEqual({ column: 'Código' });
    expect(written.fields['currentStage.pipelineName']).toEqual({ column: 'Embudo' });

    // the shipped profile (docs/sandbox.md's fixtures, pushed by fixtures-push.test.ts) is this very output
    // (written outside this checkout, it has no $schema line: init-schema-ref.test.ts)
    const { $schema, ...proposed } = written;
    expect($schema).toBeUndefined();
    if (name === 'oportunidades.csv') expect(proposed).toEqual(JSON.parse(readFileSync('fixtures/es-reporte/oportunidades.profile.json', 'utf8')));

    const validate = await spawnCli(['validate', file, '--profile', profile]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stdout).toContain('OK: all 12 rows valid.');
  },
  30_000,
);

test('a header row that leaves no data rows: init refuses, naming the row that looks like the header; validate with a profile says the same under its error', async () => {
  const { dir, file } = copied('oportunidades.csv');
  const profile = join(dir, 'deals.profile.json');
  const init = await spawnCli(['init', file, '--resource', 'deal', '--header-row', '2', '--out', profile]);
  expect(init.code).toBe(2);
  const said =
    'no row below the header on line 2 fits its 2 columns (the rows below it use up to 11); line 4 looks like the header: set --header-row 4 (reader.headerRow: 4)';
  expect(expectOneLineError(init.stderr, `${file}:2: `)).toBe(`${file}:2: ${said}`);
  expect(init.stderr).toContain(`  ./bin/batch-sync.js init ${file} --header-row 4`);
  expect(existsSync(profile)).toBe(false);

  // the profile init writes without the flag, overridden by one: its columns are not in that header
  expect((await spawnCli(['init', file, '--resource', 'deal', '--out', profile])).code).toBe(0);
  const validate = await spawnCli(['validate', file, '--profile', profile, '--header-row', '2']);
  expect(validate.code).toBe(2);
  expect(expectOneLineError(validate.stderr, 'profile ')).toContain(`column "Código" is not in ${file}`);
  expect(validate.stderr).toContain(`  ${said}`);
}, 30_000);
