// Issue 26 item 4: `init` writes a `$schema` line into each profile and plan it writes, pointing at
// the installed copy of schemas/, so a JSON-Schema-aware editor completes and checks the file. The
// editor's part is played by ajv: it resolves `$schema` from the written file's location on disk, as
// VS Code does, and must give the loader's verdict. Issue 33 item 7: the line is never an absolute
// path of this machine. It is a path relative to the file when the copy that ran belongs to the
// file's project (installed under its node_modules/, or the file is inside this checkout), which
// still resolves when the project is cloned elsewhere; anywhere else init writes no `$schema` and
// says so once, with what to do.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { parseProfile } from '../../src/map/load-profile.js';
import { runCli } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const SAMPLES = join(ROOT, 'fixtures/es-vendedores');

function copySamples(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const f of ['vendedores.csv', 'ventas.csv']) copyFileSync(join(SAMPLES, f), join(dir, f));
}

/** What an editor does with a file's `$schema`: resolve it against the file's own URL and read it from disk. */
function schemaOf(file: string): { ref: string; validate: (data: unknown) => boolean; errors: () => string[] } {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string };
  const url = new URL(data.$schema, pathToFileURL(file));
  expect(url.protocol).toBe('file:');
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, strictRequired: false, keywords: ['errorMessage'], formats: { uri: true } });
  const check = ajv.compile(JSON.parse(readFileSync(fileURLToPath(url), 'utf8')));
  return {
    ref: data.$schema,
    validate: (d) => check(d) as boolean,
    errors: () => (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`),
  };
}

function loaderAccepts(json: unknown): boolean {
  try {
    parseProfile(json, 'p.profile.json');
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

/** The note init prints once when it wrote a file without `$schema`. */
const NO_SCHEMA = 'no "$schema" line written: batch-sync is not installed in this project';

describe('init writes $schema, and a JSON Schema validator reads the file through it', () => {
  test('from this checkout, into a folder inside it: a path relative to the file, in each profile and the plan', async () => {
    const scratch = join(ROOT, '.batch-sync');
    mkdirSync(scratch, { recursive: true });
    const dir = mkdtempSync(join(scratch, 'init-schema-'));
    try {
      copySamples(dir);
      const init = await runCli(['init', join(dir, 'vendedores.csv'), join(dir, 'ventas.csv')]);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).not.toContain(NO_SCHEMA);

      const plan = JSON.parse(readFileSync(join(dir, 'batch-sync.config.json'), 'utf8'));
      expect(Object.keys(plan)[0]).toBe('$schema');
      expect(plan.$schema).toBe('../../schemas/batch-sync.config.schema.json');
      expect(schemaOf(join(dir, 'batch-sync.config.json')).validate(plan)).toBe(true);

      for (const name of ['vendedores.profile.json', 'ventas.profile.json']) {
        const file = join(dir, name);
        const profile = JSON.parse(readFileSync(file, 'utf8'));
        expect(Object.keys(profile)[0], name).toBe('$schema');
        expect(profile.$schema, name).toBe('../../schemas/profile.schema.json');
      }

      // vendedores is complete as written; ventas holds the placeholder init lists: both say so
      const sellers = schemaOf(join(dir, 'vendedores.profile.json'));
      const sellersProfile = JSON.parse(readFileSync(join(dir, 'vendedores.profile.json'), 'utf8'));
      expect(sellers.validate(sellersProfile), sellers.errors().join('\n')).toBe(true);
      expect(loaderAccepts(sellersProfile)).toBe(true);

      const sales = schemaOf(join(dir, 'ventas.profile.json'));
      const salesProfile = JSON.parse(readFileSync(join(dir, 'ventas.profile.json'), 'utf8'));
      expect(sales.validate(salesProfile)).toBe(false);
      // ajv says it plainly; an editor shows the schema's errorMessage ("left by init for you to decide…")
      expect(sales.errors()).toContain('/fields/currentStage.pipelineName/const must NOT be valid');
      expect(loaderAccepts(salesProfile)).toBe(false);
      salesProfile.fields['currentStage.pipelineName'].const = 'Ventas';
      expect(sales.validate(salesProfile), sales.errors().join('\n')).toBe(true);
      expect(loaderAccepts(salesProfile)).toBe(true);

      // a mistake an editor should underline: a field the item does not have, a wrong type
      expect(sales.validate({ ...salesProfile, fields: { ...salesProfile.fields, amonut: 'Monto' } })).toBe(false);
      expect(sales.errors()).toContain('/fields must NOT have additional properties');
      expect(sales.validate({ ...salesProfile, decimal: 1 })).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("from this checkout, into a folder outside it: no $schema (never this machine's path), and one note saying what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-schema-'));
    copySamples(dir);
    const init = await runCli(['init', join(dir, 'vendedores.csv'), join(dir, 'ventas.csv')]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout.split(NO_SCHEMA).length - 1).toBe(1);
    expect(init.stdout).toContain('npm install --save-dev batch-sync');
    for (const name of ['batch-sync.config.json', 'vendedores.profile.json', 'ventas.profile.json']) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect(JSON.parse(text), name).not.toHaveProperty('$schema');
      expect(text, name).not.toContain(ROOT);
      expect(text, name).not.toContain('file:');
    }
  });

  test('from a project with batch-sync under node_modules/: a relative path into it; no $schema for a file outside the project', async () => {
    const project = mkdtempSync(join(tmpdir(), 'init-installed-'));
    const installed = join(project, 'node_modules/batch-sync');
    mkdirSync(installed, { recursive: true });
    // the package as npm installs it (its `files`), with its dependencies beside it
    for (const part of ['bin', 'dist', 'schemas', 'package.json']) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
    for (const dep of readdirSync(join(ROOT, 'node_modules'))) {
      if (!dep.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep));
    }
    copySamples(join(project, 'exports'));
    const installedCli = (args: string[]) => spawnSync(process.execPath, [join(installed, 'bin/batch-sync.js'), ...args], { cwd: project, encoding: 'utf8' });
    const init = installedCli(['init', 'exports/vendedores.csv', '--resource', 'sales-profile']);
    expect(init.status, init.stderr).toBe(0);
    const file = join(project, 'exports/vendedores.profile.json');
    const editor = schemaOf(file);
    expect(editor.ref).toBe('../node_modules/batch-sync/schemas/profile.schema.json');
    expect(editor.validate(JSON.parse(readFileSync(file, 'utf8'))), editor.errors().join('\n')).toBe(true);

    const elsewhere = mkdtempSync(join(tmpdir(), 'init-outside-'));
    copySamples(elsewhere);
    const outside = installedCli(['init', join(elsewhere, 'vendedores.csv'), '--resource', 'sales-profile']);
    expect(outside.status, outside.stderr).toBe(0);
    expect(outside.stdout).toContain(NO_SCHEMA);
    const far = readFileSync(join(elsewhere, 'vendedores.profile.json'), 'utf8');
    expect(JSON.parse(far)).not.toHaveProperty('$schema');
    expect(far).not.toContain(project);
  }, 60_000);
});
