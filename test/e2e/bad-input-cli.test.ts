// Every file of the bad-input corpus through `batch-sync validate`, as a user would run it: the exit
// code, a one-line error naming the file and line (or the profile's field) and never a stack trace,
// and, where the file is usable, the count of valid rows and the items they became. The table is
// fixtures/bad/cli-expected.json; the reader-level table (expected.json) is checked elsewhere.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempFiles } from '../helpers/cli.js';
import { expectCleanStderr, expectOneLineError } from './bad-input-checks.js';

interface InvalidRow {
  line: number;
  field?: string;
  reason: string;
}
interface CliCase {
  case?: string;
  file: string;
  profile: string;
  exit: 0 | 1 | 2;
  error?: string;
  line?: number;
  profileField?: string;
  suggestion?: string;
  read?: number;
  valid?: number;
  invalid?: InvalidRow[];
  emitted?: object[];
}

const dir = join(import.meta.dirname, '../../fixtures/bad');
const table = JSON.parse(readFileSync(join(dir, 'cli-expected.json'), 'utf8')) as CliCase[];
const NOT_INPUTS = new Set(['expected.json', 'cli-expected.json', 'make.mjs', 'profiles']);

async function validate(t: Pick<CliCase, 'file' | 'profile'>, extra: string[] = []) {
  const out = tempFiles({});
  const emit = join(out, 'emitted.ndjson');
  const file = join(dir, t.file);
  const r = await runCli(['validate', '--format', 'json', '-p', join(dir, 'profiles', `${t.profile}.profile.json`), '--emit', emit, ...extra, file]);
  const emitted = existsSync(emit)
    ? readFileSync(emit, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((l) => (JSON.parse(l) as { items: object[] }).items)
    : [];
  return { ...r, file, emitted };
}

describe('the bad-input corpus through batch-sync validate', () => {
  it('lists every input file of fixtures/bad', () => {
    const inputs = readdirSync(dir).filter((f) => !NOT_INPUTS.has(f));
    const covered = new Set(table.map((t) => t.file));
    expect(inputs.filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(table.map((t) => [t.case ?? t.file, t] as const))('%s', async (_name, t) => {
    const r = await validate(t);
    expect(r.code, r.stderr).toBe(t.exit);
    expectCleanStderr(r.stderr);

    if (t.exit === 2) {
      const where = t.profileField ? `profile ${t.profile}.profile.json: ${t.profileField}: ` : t.line === undefined ? `${r.file}: ` : `${r.file}:${t.line}: `;
      const line = expectOneLineError(r.stderr, where);
      expect(line).toContain(t.error);
      if (t.suggestion) expect(r.stderr.toLowerCase()).toContain(t.suggestion.toLowerCase());
      // nothing usable came out of an unusable input
      expect(r.emitted).toEqual([]);
      expect(r.stdout).toBe('');
      return;
    }

    const report = JSON.parse(r.stdout);
    const invalid = t.invalid ?? [];
    expect(report.totals).toMatchObject({ read: t.read, accepted: t.valid, invalid: invalid.length, rejected: 0, skipped: 0 });
    const rows = report.notAccepted as { file: string; line: number; field: string | null; message: string; detail: string }[];
    expect(rows.map((x) => x.line)).toEqual(invalid.map((x) => x.line));
    for (const [i, want] of invalid.entries()) {
      expect(rows[i]!.file).toBe(r.file);
      if (want.field) expect(rows[i]!.field).toBe(want.field);
      expect(`${rows[i]!.message} ${rows[i]!.detail}`).toContain(want.reason);
    }
    // the valid rows of the same file still made it into batches
    expect(r.emitted).toHaveLength(t.valid!);
    if (t.emitted) expect(r.emitted.slice(0, t.emitted.length)).toMatchObject(t.emitted);
  });

  it('a 10 MB field stops at its line with the limit to raise; raised, the row is read and refused as too large to send', async () => {
    const tmp = tempFiles({});
    const file = join(tmp, 'big-field.csv');
    writeFileSync(file, `id,nome\n1,ok\n2,"${'x'.repeat(10 * 1024 * 1024)}"\n3,fine\n`);
    const profile = join(dir, 'profiles', 'id-name-account.profile.json');
    const r = await runCli(['validate', '--format', 'json', '-p', profile, file]);
    expect(r.code).toBe(2);
    expectCleanStderr(r.stderr);
    expect(expectOneLineError(r.stderr, `${file}:3: `)).toContain('over 1 MiB');
    expect(r.stderr).toContain('--max-record-bytes');

    const raised = await runCli(['validate', '--format', 'json', '--max-record-bytes', String(16 * 1024 * 1024), '-p', profile, file]);
    expect(raised.code).toBe(1);
    const report = JSON.parse(raised.stdout);
    expect(report.totals).toMatchObject({ read: 3, accepted: 2, invalid: 1 });
    expect(report.notAccepted).toMatchObject([{ line: 3, message: 'TOO_LARGE' }]);
  });
});
