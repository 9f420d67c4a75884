// Issue 36 row 4: one JSON record with an unmapped value nested 100,000 levels deep (200 KB) ended
// validate and push with a profile, inspect and init with exit 70 and a stack trace; push left an
// in-flight record every rerun resent, so the rows after it were never sent. Such a record is now
// unreadable at its line, and the others go on.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tooDeepAt } from '../../src/read/json/nesting-depth.js';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

function exportDir() {
  const dir = tempFiles({
    'a.profile.json': JSON.stringify({ resource: 'account', fields: { externalId: 'id', name: 'name', type: { const: 'CUSTOMER' } } }),
  });
  writeFileSync(join(dir, 'a.json'), `[{"id":"A-1","name":"One","extra":${DEEP}},\n{"id":"A-2","name":"Two"}]`);
  return dir;
}

test.each([['validate'], ['push', '--sandbox']])('%s with a profile: the deep record is one invalid row, the other goes on', async (...args) => {
  const dir = exportDir();
  const state = args[0] === 'push' ? ['--state-dir', join(dir, 'state')] : [];
  const r = await spawnCli([...args, ...state, '--profile', 'a.profile.json', 'a.json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(/internal error|RangeError/);
  expect(r.stdout).toMatch(/a\.json:1 .*nests deeper than 64 levels/);
  expect(r.stdout).toMatch(/accepted|valid/);
  const inFlight = join(dir, 'state', 'in-flight');
  if (existsSync(inFlight)) expect(readdirSync(inFlight)).toEqual([]);
});

test.each([
  ['inspect', 'a.json'],
  ['init', 'a.json', '--resource', 'account', '--out', 'x.profile.json'],
])('%s: no stack trace', async (...args) => {
  const dir = exportDir();
  const r = await spawnCli(args, { cwd: dir });
  expect(r.code).not.toBe(70);
  expect(r.stderr).not.toMatch(/internal error|RangeError/);
});

test('depth is counted outside strings only, and only on texts long enough to be that deep', () => {
  expect(tooDeepAt(`"${'['.repeat(500)}"`)).toBe(-1);
  expect(tooDeepAt(`${'['.repeat(65)}${']'.repeat(65)}`)).toBe(64);
  expect(tooDeepAt(`${'[{"a":'.repeat(20)}1${'}]'.repeat(20)}`)).toBe(-1);
  // 63 arrays inside the object: 64 levels, the most allowed; an escaped quote does not end the string
  expect(tooDeepAt(`{"a":"\\"[[[","b":${'['.repeat(63)}${']'.repeat(63)}}`)).toBe(-1);
  expect(tooDeepAt(`{"a":"\\"[[[","b":${'['.repeat(64)}${']'.repeat(64)}}`)).toBe(80);
});
