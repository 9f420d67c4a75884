// MySQL `SELECT … INTO OUTFILE` exports (a vTiger CRM's) escape a quote inside a quoted field as \"
// instead of doubling it. The escape option reaches the reader whichever way it is given: the
// profile's `reader.escape` (on both engines: the fast one reads in a worker thread), a reader flag
// with files named on the command line, never silently dropped with a plan (refused: exit 2), and
// `init` writes it into the profile it proposes when the sample shows such quotes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const VTIGER_CSV = 'id,name,note\n1,"Acme","said \\"hi\\""\n2,"Beta","plain"\n3,"Gamma","a \\\\ backslash"\n';

const profile = (reader: Record<string, unknown>) =>
  JSON.stringify({
    resource: 'account',
    reader,
    fields: { externalId: 'id', name: 'name', type: { const: 'COMPANY' } },
    customFields: [{ key: 'note', type: 'string', column: 'note' }],
  });

/** Every item of the envelopes `--emit` wrote, by externalId. */
function emitted(path: string): Map<string, { customFields?: { key: string; value: unknown }[] }> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const items = lines.flatMap((l) => JSON.parse(l).items as { externalId: string; customFields?: { key: string; value: unknown }[] }[]);
  return new Map(items.map((i) => [i.externalId, i]));
}

describe.each(['simple', 'fast'])("the profile's reader.escape, --engine %s", (engine) => {
  test('reads \\" as a quote: every row valid, the note as written', async () => {
    const dir = tempFiles({ 'accounts.csv': VTIGER_CSV, 'accounts.profile.json': profile({ escape: '\\' }) });
    const r = await spawnCli(['validate', 'accounts.csv', '--engine', engine, '--emit', 'out.ndjson'], { cwd: dir });
    expect(r.stderr).not.toMatch(/Unrecognized key/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('OK: all 3 rows valid.');
    const items = emitted(join(dir, 'out.ndjson'));
    expect(items.get('1')?.customFields?.[0]?.value).toBe('said "hi"');
    expect(items.get('3')?.customFields?.[0]?.value).toBe('a \\ backslash');
  });

  test('push --sandbox --config: a job whose profile sets escape has every row accepted', async () => {
    const dir = tempFiles({
      'accounts.csv': VTIGER_CSV,
      'accounts.profile.json': profile({ escape: '\\', maxRecordBytes: 4096, format: 'csv' }),
      'plan.json': JSON.stringify({ jobs: [{ file: 'accounts.csv', profile: 'accounts.profile.json' }] }),
    });
    const r = await spawnCli(['push', '--sandbox', '--engine', engine, '--config', 'plan.json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('OK: all 3 rows accepted.');
  });
});

test('a profile whose escape is not one character is refused at the profile field', async () => {
  const dir = tempFiles({ 'accounts.csv': VTIGER_CSV, 'accounts.profile.json': profile({ escape: '\\\\' }) });
  const r = await spawnCli(['validate', 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/reader\.escape: .*one character/);
});

describe('reader flags with a plan', () => {
  const planDir = () =>
    tempFiles({
      'accounts.csv': VTIGER_CSV,
      'accounts.profile.json': profile({}),
      'plan.json': JSON.stringify({ jobs: [{ file: 'accounts.csv', profile: 'accounts.profile.json' }] }),
    });

  test("push --config plan.json --escape '\\' is refused, one line naming where it goes, nothing sent", async () => {
    const r = await spawnCli(['push', '--sandbox', '--config', 'plan.json', '--escape', '\\'], { cwd: planDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('accepted');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--escape');
    expect(lines[0]).toContain('jobs[].reader');
    expect(lines[0]).toContain('"escape": "\\\\"');
  });

  test('--delimiter and --header-row with the plan of the working folder are refused too', async () => {
    const dir = planDir();
    writeFileSync(join(dir, 'batch-sync.config.json'), readFileSync(join(dir, 'plan.json')));
    const r = await spawnCli(['validate', '--delimiter', ';', '--header-row', '2'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--delimiter, --header-row/);
    expect(r.stderr).toContain('"delimiter": ";", "headerRow": 2');
  });

  test.each([
    [['--resource', 'deal'], '--resource', '"resource"'],
    [['--profile', 'other.profile.json'], '--profile', '"profile"'],
  ])('%j with a plan is refused too, not dropped', async (flag, name, key) => {
    const r = await spawnCli(['validate', '--config', 'plan.json', ...flag], { cwd: planDir() });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${name} `);
    expect(lines[0]).toContain(`${key} in its jobs[]`);
  });

  test('with files named, the flag still reads them', async () => {
    const dir = planDir();
    writeFileSync(join(dir, 'batch-sync.config.json'), readFileSync(join(dir, 'plan.json')));
    const r = await spawnCli(['validate', 'accounts.csv', '--escape', '\\'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('OK: all 3 rows valid.');
  });
});

test('init on a file with \\" writes "escape": "\\\\" into the reader it proposes, and says so', async () => {
  const dir = tempFiles({ 'accounts.csv': VTIGER_CSV });
  const r = await spawnCli(['init', 'accounts.csv', '--resource', 'account'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('proposed from all 3 rows of accounts.csv');
  expect(r.stdout).toMatch(/check:\n( {2}- .*\n)* {2}- reader\.escape: .*\\"/);
  expect(r.stdout).not.toContain('escaped with a backslash');
  const written = JSON.parse(readFileSync(join(dir, 'accounts.profile.json'), 'utf8'));
  expect(written.reader.escape).toBe('\\');
});

test('init whose check pass meets \\" past its sample sets escape too, and checks again', async () => {
  const rows = Array.from({ length: 60 }, (_, i) => `${i + 1},"Acme ${i + 1}","${i === 49 ? 'said \\"hi\\"' : 'plain'}"`);
  const dir = tempFiles({ 'accounts.csv': `id,name,note\n${rows.join('\n')}\n` });
  const r = await spawnCli(['init', 'accounts.csv', '--resource', 'account', '--sample', '20'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('proposed from the first 20 rows of accounts.csv');
  expect(r.stdout).toMatch(/check:\n( {2}- .*\n)* {2}- reader\.escape: .*line 51/);
  expect(r.stdout).toContain('checked against all 60 rows: 60 valid');
  const written = JSON.parse(readFileSync(join(dir, 'accounts.profile.json'), 'utf8'));
  expect(written.reader.escape).toBe('\\');
});
