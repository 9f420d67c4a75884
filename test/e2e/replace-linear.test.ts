// Issue 36 row 2: a profile's `replace` pattern with catastrophic backtracking (`^(a+)+$`) over a
// 41-character cell hung validate and push for ever (nothing printed, SIGTERM ignored, the lock held).
// Patterns run on a linear-time engine: the run ends at once; one the engine cannot run (a
// back-reference) is refused when the profile loads, naming the field.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

function profile(pattern: string) {
  return JSON.stringify({
    resource: 'account',
    fields: { externalId: 'Id', name: { column: 'Name', replace: [{ pattern, with: 'x' }] }, type: { const: 'CUSTOMER' } },
  });
}

test.each(['validate', 'push'])('%s: ^(a+)+$ over a 41-character cell ends at once', async (command) => {
  const dir = tempFiles({ 'a.csv': `Id,Name\nA-1,${'a'.repeat(40)}!\nA-2,aaa\n`, 'a.profile.json': profile('^(a+)+$') });
  const args = command === 'push' ? ['push', '--sandbox'] : ['validate'];
  const r = await spawnCli([...args, '--profile', join(dir, 'a.profile.json'), join(dir, 'a.csv')], { cwd: dir, timeoutMs: 20_000 });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/2 rows/);
});

test('a pattern with a back-reference is refused when the profile loads, naming the field', async () => {
  const dir = tempFiles({ 'a.csv': 'Id,Name\nA-1,aa\n', 'a.profile.json': profile('(a)\\1') });
  const r = await spawnCli(['validate', '--profile', join(dir, 'a.profile.json'), join(dir, 'a.csv')], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/fields\.name\.replace\[0\]\.pattern: cannot run in linear time/);
});
