// Repeated rows (issue 25 item 4, issue 27 item 3): a sales-profile row that repeats an earlier
// one never holds back that owner's deals, and a file named twice for one kind is refused before
// anything is read or sent, instead of calling each of its rows a duplicate of itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
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

describe('identical repeats (issue 25 item 4)', () => {
  const HEADER = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency';
  const deal = (n: number, title = `Deal ${n}`) => `D-${n},${title},ana,ana,false,${n}.50,USD`;
  const profiles = [PROFILES_HEADER, 'ana,ana@example.com,Ana,Souza'].join('\n');

  test('rows byte-identical to an earlier row are skipped as deliberate, sent once, one line per file; a differing repeat stays invalid', async () => {
    const dir = tempFiles({
      'sales-profiles.csv': profiles,
      // D-2 twice more exactly (lines 6, 7), D-3 once more with another title (line 8)
      'deals.csv': [HEADER, deal(1), deal(2), deal(3), deal(4), deal(2), deal(2), deal(3, 'Deal 3 renamed')].join('\n'),
    });
    const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv', '--errors', 'failed'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('deal: 2 rows skipped\n2 rows repeat an earlier row exactly (first at deals.csv:3): sent once\n');
    expect(r.stdout).not.toContain('deals.csv:6');
    expect(r.stdout).toContain('deals.csv:8  D-3  externalId: duplicate externalId "D-3": first seen at deals.csv:4, which wins; this row is not sent');
    expect(r.stdout).toContain('The embedded sandbox now holds: 1 sales-profile, 0 accounts, 4 deals, 0 activities');
    expect(r.stderr).toMatch(/ FAILED exit=1 read=8 accepted=5 rejected=0 invalid=1 skipped=2 /);
    // only the row to fix is handed back
    const failed = readFileSync(join(dir, 'failed', 'deals.errors.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(failed).toHaveLength(2);
    expect(failed[1]).toMatch(/^D-3,Deal 3 renamed,.*,8,invalid,externalId,DUPLICATE,/);
  });

  test('identical repeats alone: exit 0 in validate and push, the guard does not count them, and the JSON report names each one’s first row', async () => {
    const dir = tempFiles({ 'sales-profiles.csv': profiles, 'deals.csv': [HEADER, deal(1), deal(2), deal(1), deal(1)].join('\n') });
    const v = await spawnCli(['validate', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
    expect(v.code, v.stdout).toBe(0);
    expect(v.stdout).toContain('2 rows repeat an earlier row exactly (first at deals.csv:2): sent once');
    expect(v.stdout).toContain('OK: all 3 rows valid, 2 skipped.');
    const p = await spawnCli(['push', '--sandbox', '--max-rejections', '0', '--format', 'json', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
    expect(p.code, p.stderr).toBe(0);
    const report = JSON.parse(p.stdout);
    expect(report.totals).toMatchObject({ read: 5, accepted: 3, skipped: 2, invalid: 0 });
    const group = report.groups.find((g: { outcome: string }) => g.outcome === 'skipped');
    expect(group).toMatchObject({ resource: 'deal', count: 2 });
    expect(group.examples.map((e: { line: number; message: string; detail: string }) => [e.line, e.message, e.detail])).toEqual([
      [4, 'DUPLICATE_IDENTICAL', 'identical to deals.csv:2'],
      [5, 'DUPLICATE_IDENTICAL', 'identical to deals.csv:2'],
    ]);
    expect(p.stderr).toContain('The embedded sandbox now holds: 1 sales-profile, 0 accounts, 2 deals, 0 activities');
  });

  test('a sales-profile row repeated exactly never holds back that owner’s deals (issue 27 item 3): exit 0', async () => {
    const dir = tempFiles({
      'sales-profiles.csv': [PROFILES_HEADER, 'ana-souza,ana@example.com,Ana,Souza', 'ana-souza,ana@example.com,Ana,Souza'].join('\n'),
      'deals.csv': dealsCsv(3, { owner: () => 'ana-souza' }),
    });
    const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('sales-profile: 1 row skipped\n1 row repeats an earlier row exactly (first at sales-profiles.csv:2): sent once\n');
    expect(r.stdout).toContain('The embedded sandbox now holds: 1 sales-profile, 0 accounts, 3 deals, 0 activities');
  });
});

test('the run history does not count identical repeats as rows not accepted', async () => {
  const HEADER = 'externalId,name,type';
  const dir = tempFiles({ 'accounts.csv': [HEADER, 'A-1,Acme,COMPANY', 'A-2,Beta,COMPANY', 'A-1,Acme,COMPANY'].join('\n') });
  const r = await spawnCli(['push', '--sandbox', '--quiet', '--state-dir', 'state', '--full', 'accounts.csv'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const h = await spawnCli(['history', '--state-dir', 'state', '--format', 'json'], { cwd: dir });
  expect(JSON.parse(h.stdout).runs.map((x: { read: number; skipped: number; notAccepted: number }) => [x.read, x.skipped, x.notAccepted])).toEqual([[3, 1, 0]]);
});

test('an export without a unique key (a Brazilian CRM’s companies list, rows repeated by its export): rowHash ids, repeats sent once, the ids stable on a rerun', async () => {
  const rows = [
    'Empresa;Cidade;Segmento',
    'Padaria Pão Quente;São Paulo;Varejo',
    'Oficina do Zé;Recife;Serviços',
    'Padaria Pão Quente;São Paulo;Varejo',
    'Padaria Pão Quente;Campinas;Varejo',
    'Oficina do Zé;Recife;Serviços',
  ];
  const profile = {
    resource: 'account',
    fields: { externalId: { rowHash: true }, name: 'Empresa', type: { const: 'COMPANY' } },
    customFields: [{ key: 'cidade', type: 'string', column: 'Cidade' }],
  };
  const dir = tempFiles({ 'empresas.csv': rows.join('\n'), 'empresas.profile.json': JSON.stringify(profile) });
  const push = () => spawnCli(['push', '--sandbox', '--resource', 'account', '--format', 'json', 'empresas.csv'], { cwd: dir });
  const first = await push();
  expect(first.code, first.stderr).toBe(0);
  const report = JSON.parse(first.stdout);
  expect(report.totals).toMatchObject({ read: 5, accepted: 3, skipped: 2 });
  expect(report.groups[0].reason).toBe('DUPLICATE_IDENTICAL rows repeat an earlier row exactly (first at empresas.csv:2): sent once');
  expect(first.stderr).toContain('The embedded sandbox now holds: 0 sales-profiles, 3 accounts');
  const emittedIds = async () =>
    (await spawnCli(['validate', '--emit', '-', 'empresas.csv'], { cwd: dir })).stdout
      .trim()
      .split('\n')
      .flatMap((l) => (JSON.parse(l) as { items: { externalId: string }[] }).items.map((i) => i.externalId));
  const ids = await emittedIds();
  expect(ids).toHaveLength(3);
  for (const id of ids) expect(id).toMatch(/^rh-[0-9a-f]{20}$/);
  // the same content, the same ids, run after run
  expect(await emittedIds()).toEqual(ids);
});
