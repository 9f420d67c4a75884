// README's quick start, step 5, as a new user runs it: the deals pushed without their sellers are held
// back and written to the errors CSV, then that CSV is fed back with the deals' profile (which
// declares windows-1252). The report must hold one group per cause in short lines, the hint must name
// the sellers file lying beside the deals, and our own errors CSV (UTF-8 with a BOM) must read back
// without a warning: the BOM is trusted, said once with --verbose.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { cliFrom, spawnCli, tempFiles } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const SELLERS = 'fixtures/es-vendedores/vendedores.csv';
const DEALS = 'fixtures/es-vendedores/ventas.csv';
const PROFILE = 'fixtures/es-vendedores/ventas.profile.json';
let dir: string;

beforeAll(async () => {
  dir = tempFiles({});
  cpSync(join(ROOT, 'fixtures/es-vendedores'), join(dir, 'fixtures/es-vendedores'), { recursive: true });
  const init = await spawnCli(['init', SELLERS, DEALS], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const profile = join(dir, PROFILE);
  writeFileSync(profile, readFileSync(profile, 'utf8').replace('<FILL IN: pipeline name>', 'Ventas'));
  expect(readFileSync(profile, 'utf8')).toContain('"encoding": "windows-1252"');
}, 60_000);

test('deals pushed without their sellers: one group per cause, short lines, the sellers file beside them named', async () => {
  const r = await spawnCli(['push', '--sandbox', DEALS, '--errors', 'failed.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(1);
  // the working folder as a user's would read (`~/batch-sync`), not the test's long temporary path
  const lines = r.stdout.replaceAll(dir, '~/batch-sync').split('\n');
  const groups = lines.filter((l) => /^\d+ rows?: /.test(l));
  expect(groups).toHaveLength(1);
  expect(groups[0]).toMatch(/^300 rows: HELD_BACK /);
  // about 100 columns (the sandbox's closing line, quoted in the README, is 105); a command to paste is one line, however long its paths
  // (batch-sync named as it runs from that folder: the clone's bin/batch-sync.js by its path)
  for (const line of lines.filter((l) => !l.startsWith(`  ${cliFrom(dir)} `))) expect(line.length, line).toBeLessThanOrEqual(105);
  expect(r.stdout).toContain(`${cliFrom(dir)} push --sandbox ${SELLERS} ${DEALS}`);
}, 60_000);

test('the errors CSV fed back with the deals profile reads without a warning; --verbose says the BOM once', async () => {
  const feedBack = ['push', '--sandbox', SELLERS, `failed.csv:${PROFILE}`];
  const r = await spawnCli(feedBack, { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('OK: all 312 rows accepted.');
  expect(r.stdout).not.toMatch(/Warnings|byte-order mark/);
  expect(r.stderr).toMatch(/ OK exit=0 read=312 accepted=312 .* warnings=0 /);

  const verbose = await spawnCli([...feedBack, '--verbose'], { cwd: dir });
  expect(verbose.code, verbose.stderr).toBe(0);
  expect(verbose.stdout).not.toMatch(/Warnings|byte-order mark/);
  const said = verbose.stderr.split('\n').filter((l) => /byte-order mark/.test(l));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(/failed\.csv.*UTF-8.*windows-1252/);
}, 60_000);
