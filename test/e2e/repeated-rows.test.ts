// Repeated rows (issue 25 item 4, issue 27 item 3): a sales-profile row that repeats an earlier
// one never holds back that owner's deals, and a file named twice for one kind is refused before
// anything is read or sent, instead of calling each of its rows a duplicate of itself.
import { expect, test } from 'vitest';
import { dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';

const PROFILES_HEADER = 'externalId,email,profile.firstName,profile.lastName';

test('a repeated sales-profile row that differs is one invalid DUPLICATE, and the owner’s deals are still sent (its first row was accepted)', async () => {
  const dir = tempFiles({
    'sales-profiles.csv': [
      PROFILES_HEADER,
      'ana-souza,ana@example.com,Ana,Souza',
      'bruno,bruno@example.com,Bruno,Díaz',
      'ana-souza,ana.souza@example.com,Ana,Souza',
    ].join('\n'),
    'deals.csv': dealsCsv(4, { owner: (i) => (i % 2 ? 'ana-souza' : 'bruno') }),
  });
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).not.toContain('HELD_BACK');
  expect(r.stdout).not.toContain('was not accepted in this run');
  expect(r.stdout).toContain('sales-profiles.csv:4  ana-souza  externalId: duplicate externalId "ana-souza": first seen at sales-profiles.csv:2');
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 4 deals, 0 activities');
  expect(r.stderr).toMatch(/ FAILED exit=1 read=7 accepted=6 rejected=0 invalid=1 skipped=0 /);
});

test('a file named twice for the same kind is refused before anything is sent, naming it (not "first seen at sales-profiles.csv:2" for line 2 itself)', async () => {
  const dir = tempFiles({
    'sales-profiles.csv': [PROFILES_HEADER, 'ana,ana@example.com,Ana,Souza', 'bruno,bruno@example.com,Bruno,Díaz'].join('\n'),
    'deals.csv': dealsCsv(2),
  });
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).toContain('sales-profiles.csv is named twice as sales-profile: every row would repeat itself; name it once');
  expect(r.stdout + r.stderr).not.toContain('first seen at');
  expect(r.stderr).not.toMatch(/^\s+at /m);
});
