// Issue 36 row 1: a number past what a double holds exactly is never rounded on its way to the API.
// From a CSV's `:number` custom field, a profile's `type: number` with `number` or `integer`, the
// value is sent digit for digit when the JSON literal means the same number, and refused with the
// cell named when it cannot (9007199254740993 would go as ...992; 0.1000000000000000000001 as 0.1):
// two rows then can no longer collapse into one "identical" row either.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const HEADER = 'externalId,name,type,customFields.seats[Seats]:number';

async function emit(rows: string[], extra: Record<string, string> = {}, args: string[] = ['accounts.csv']) {
  const dir = tempFiles({ 'accounts.csv': [HEADER, ...rows].join('\n'), ...extra });
  const r = await spawnCli(['validate', '--emit', '-', ...args], { cwd: dir });
  const items = r.stdout
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => (JSON.parse(l) as { items: unknown[] }).items);
  return { ...r, items, raw: r.stdout };
}

test('a :number custom field past 2^53 is refused with the cell named, never rounded', async () => {
  const r = await emit(['A-1,One,CUSTOMER,9007199254740993', 'A-2,Two,CUSTOMER,9007199254740992', 'A-3,Three,CUSTOMER,0.1000000000000000000001']);
  expect(r.code).toBe(1);
  const details = r.stderr;
  expect(details).toMatch(/"9007199254740993" .*cannot be sent exactly as a number/);
  expect(details).toMatch(/"0\.1000000000000000000001" .*cannot be sent exactly as a number/);
  // 2^53 itself is a double: sent as it is written
  expect(r.raw).toContain('9007199254740992');
  expect(r.items).toHaveLength(1);
});

test('two rows with one id and different big numbers are not taken for identical repeats', async () => {
  const r = await emit(['A-1,One,CUSTOMER,12345678901234567001', 'A-1,One,CUSTOMER,12345678901234567002']);
  expect(r.code).toBe(1);
  expect(r.stderr).not.toMatch(/repeats an earlier row exactly/);
  expect(r.items).toHaveLength(0);
});

test("a profile's type: number with transform integer: the same rule", async () => {
  const profile = {
    resource: 'account',
    fields: { externalId: 'Id', name: 'Name', type: { const: 'CUSTOMER' } },
    customFields: [{ key: 'seats', type: 'number', column: 'Seats', transform: 'integer' }],
  };
  const dir = tempFiles({
    'a.csv': 'Id,Name,Seats\nA-1,One,9007199254740993\nA-2,Two,"1.234.567.890.123.456.789"\nA-3,Three,42\n',
    'a.profile.json': JSON.stringify(profile),
  });
  const r = await spawnCli(['validate', '--emit', '-', '--profile', join(dir, 'a.profile.json'), join(dir, 'a.csv')], { cwd: dir });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('"value":42');
  expect(r.stdout).not.toMatch(/9007199254740992|1234567890123456800/);
});
