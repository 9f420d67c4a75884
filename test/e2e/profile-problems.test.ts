// A profile with several problems is refused with all of them, one line each under the `error:`
// line: they were printed as one line with a literal "\n" between them (the newlines escaped as a
// quoted value's are), in text and in --format json alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

test.each([
  { as: 'text', format: [] },
  { as: 'json', format: ['--format', 'json'] },
])('$as: a profile with two placeholders, one holding a control character: one line a problem, the control escaped', async ({ format }) => {
  const dir = tempFiles({ 'accounts.csv': 'id,name\n1,A\n' });
  const profile = { resource: 'account', fields: { externalId: { const: '<FILL IN: x>' }, name: { const: '<FILL IN: y\u001b[2J>' } } };
  writeFileSync(join(dir, 'bad.profile.json'), JSON.stringify(profile));
  const r = await spawnCli(['validate', 'accounts.csv', '--profile', 'bad.profile.json', ...format], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toContain('\\n');
  expect(r.stderr).not.toContain('\u001b');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^error: profile bad\.profile\.json: fields\.\w+\.const: <FILL IN: [xy]> — left by init for you to decide$/);
  expect(lines[1]).toBe('  profile bad.profile.json: fields.name.const: <FILL IN: y\\u001b[2J> — left by init for you to decide');
  expect(lines.at(-1)).toMatch(/^ {2}edit the profile/);
});
