// A few bad inputs through the built binary (bin/batch-sync.js, run `npm run build` first): what
// reaches a real terminal is one error line and the exit code, never a Node stack trace.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { expectCleanStderr, expectOneLineError } from './bad-input-checks.js';

const dir = join(import.meta.dirname, '../../fixtures/bad');
const profile = (name: string) => join(dir, 'profiles', `${name}.profile.json`);

describe('bad input through the built binary', () => {
  it.each([
    ['unbalanced-quote.csv', 'id-account', `${join(dir, 'unbalanced-quote.csv')}:3: `],
    ['xlsx-renamed.csv', 'id-account', `${join(dir, 'xlsx-renamed.csv')}: this is an Excel workbook`],
    ['utf8-bom.csv', 'unknown-transform', 'profile unknown-transform.profile.json: fields.externalId.transform[0]: expected one of'],
  ] as const)('%s with %s exits 2 with one line', async (file, prof, where) => {
    const r = await spawnCli(['validate', '-p', profile(prof), join(dir, file)]);
    expect(r.code).toBe(2);
    expectCleanStderr(r.stderr);
    expectOneLineError(r.stderr, where);
  });

  it('some rows invalid: exit 1, the report names each bad row and the good ones are counted', async () => {
    const r = await spawnCli(['validate', '-p', profile('deal-locale'), join(dir, 'impossible-date.csv')]);
    expect(r.code).toBe(1);
    expectCleanStderr(r.stderr);
    expect(r.stdout).toMatch(/deal\s+3\s+1\s+0\s+2\s+0/);
    expect(r.stdout).toContain('impossible-date.csv:2');
    expect(r.stdout).toContain('impossible-date.csv:4');
  });
});
