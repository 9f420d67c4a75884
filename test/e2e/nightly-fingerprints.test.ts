// Incremental reruns know an unchanged row from its text (its fingerprint, src/state/row-fingerprint.ts)
// and then neither validate nor serialise it. What that must not change, whichever thread reads:
// a row whose owner failed in this run is held back, warnings are repeated every run, and a profile
// edit that changes the items sends them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';

const KEY = 'fingerprint-e2e-key-01';
let env: Record<string, string>;
sandboxPerFile(
  KEY,
  (_, e) => {
    env = e;
  },
  { reset: true },
);

const THREADS = {
  // auto keeps inputs this small on one thread; fast always reads in the worker
  'one thread': { BATCH_SYNC_ENGINE: 'auto' },
  'the read worker': { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: 'none' },
} as const;

const PROFILES = 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\nbruno,bruno@example.com,Bruno,Díaz\n';
const DEALS = [
  'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency',
  'D-1,Deal one,ana,ana,false,10.00,USD',
  'D-2,"Deal two, quoted",bruno,bruno,false,20.00,USD',
  'D-3,Deal three,carla,carla,true,30.00,USD',
].join('\n');

interface Report {
  counts: Record<string, Record<string, number>>;
  groups: { resource: string; outcome: string; reason: string; count: number; examples: { externalId: string | null }[] }[];
  warnings?: unknown;
}

async function push(
  dir: string,
  files: string[],
  extra: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; report: Report; stdout: string }> {
  const r = await runCli(['push', '--format', 'json', '--incremental', '--state-dir', join(dir, 'state'), ...args, ...files.map((f) => join(dir, f))], {
    ...env,
    ...extra,
  });
  expect(r.stdout, r.stderr).not.toBe('');
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stdout: r.stdout };
}

const dealIds = (report: Report, reason: RegExp) =>
  report.groups.filter((g) => g.resource === 'deal' && reason.test(g.reason)).flatMap((g) => g.examples.map((e) => e.externalId));

test.each(Object.entries(THREADS))('an unchanged deal whose owner failed in this run is held back, not skipped as unchanged (%s)', async (_, threads) => {
  const dir = tempFiles({ 'sales-profiles.csv': PROFILES, 'deals.csv': DEALS });
  const first = await push(dir, ['sales-profiles.csv', 'deals.csv'], threads);
  expect(first.report.counts.deal).toMatchObject({ accepted: 2, rejected: 1 }); // carla is no sales profile
  writeFileSync(join(dir, 'sales-profiles.csv'), PROFILES.replace('bruno@example.com', 'not-an-email'));
  const again = await push(dir, ['sales-profiles.csv', 'deals.csv'], threads);
  expect(again.report.counts.deal).toMatchObject({ read: 3, accepted: 0, skipped: 2, rejected: 1 });
  expect(dealIds(again.report, /^HELD_BACK/)).toEqual(['D-2']);
  expect(dealIds(again.report, /^UNCHANGED/)).toEqual(['D-1']);
});

test.each(Object.entries(THREADS))(
  'warnings come back on every rerun: a value the API was not seen to use, a reference outside the run (%s)',
  async (_, threads) => {
    const accounts = 'externalId;name;type\nA-1;Acme;COMPANY\nA-2;Guild Ltda.;GUILD\n';
    const dir = tempFiles({ 'sales-profiles.csv': PROFILES, 'deals.csv': DEALS.replace('carla,carla', 'ana,ana'), 'accounts.csv': accounts });
    const files = ['sales-profiles.csv', 'accounts.csv', 'deals.csv'];
    const first = await push(dir, files, threads);
    expect(first.code).toBe(0);
    expect(first.report.counts.account).toMatchObject({ accepted: 2, warnings: 1 });
    const again = await push(dir, files, threads);
    expect(again.code).toBe(0);
    expect(again.report.counts.account).toMatchObject({ read: 2, skipped: 2, warnings: 1 });
    expect(again.stdout).toMatch(/GUILD/);
    // bruno's profile left out of the run: his unchanged deal is warned about, every time
    writeFileSync(join(dir, 'sales-profiles.csv'), PROFILES.split('\n').slice(0, 2).join('\n'));
    for (let run = 0; run < 2; run++) {
      const without = await push(dir, ['sales-profiles.csv', 'deals.csv'], threads);
      expect(without.report.counts.deal).toMatchObject({ read: 3, skipped: 3, warnings: 1 });
      expect(without.stdout).toMatch(/owner \\"bruno\\" is not among this run's sales-profiles/);
    }
  },
);

test.each(Object.entries(THREADS))('a profile edited between runs: the rows whose items changed are sent again (%s)', async (_, threads) => {
  const exportCsv = 'Código;Título;Dono\nX-1;Primeiro;ana\nX-2;Segundo;ana\n';
  const profile = (title: string) =>
    JSON.stringify({
      resource: 'deal',
      fields: {
        externalId: 'Código',
        title,
        ownerExternalId: 'Dono',
        agentExternalId: 'Dono',
        isWon: { const: false },
        'amount.value': { const: '1' },
        'amount.currency': { const: 'BRL' },
      },
    });
  const dir = tempFiles({ 'sales-profiles.csv': PROFILES, 'export.csv': exportCsv, 'deals.profile.json': profile('Título') });
  const run = () => push(dir, ['export.csv'], threads, ['--profile', join(dir, 'deals.profile.json')]);
  expect((await push(dir, ['sales-profiles.csv'], threads)).code).toBe(0);
  expect((await run()).report.counts.deal).toMatchObject({ accepted: 2 });
  expect((await run()).report.counts.deal).toMatchObject({ accepted: 0, skipped: 2 });
  writeFileSync(join(dir, 'deals.profile.json'), profile('Código'));
  expect((await run()).report.counts.deal).toMatchObject({ accepted: 2, skipped: 0 });
  // an edit that leaves the items as they were: unchanged, by their hash, and the rows' fingerprints
  // under the new profile are learned (same item hash, another fingerprint)
  const entry = () =>
    readFileSync(join(dir, 'state', 'state.snapshot'), 'utf8')
      .match(/\nX-1\t([0-9a-f]{16})\t([0-9a-f]{16})\n/)!
      .slice(1);
  const [hash, before] = entry();
  writeFileSync(join(dir, 'deals.profile.json'), profile('Código').replace('{', '{"description":"same items",'));
  expect((await run()).report.counts.deal).toMatchObject({ accepted: 0, skipped: 2 });
  expect(entry()[0]).toBe(hash);
  expect(entry()[1]).not.toBe(before);
});

test('a row known by its fingerprint is taken as unchanged without being built again', async () => {
  // white-box: the state's item hash of D-1 is altered, its row fingerprint kept. A run that builds
  // the item finds the hash different and sends it; one that knows the row from its text does not
  const dir = tempFiles({ 'sales-profiles.csv': PROFILES, 'deals.csv': DEALS.replace('carla,carla', 'ana,ana') });
  const files = ['sales-profiles.csv', 'deals.csv'];
  expect((await push(dir, files, THREADS['the read worker'])).code).toBe(0);
  const snapshot = join(dir, 'state', 'state.snapshot');
  const text = readFileSync(snapshot, 'utf8');
  expect(text).toMatch(/\nD-1\t[0-9a-f]{16}\t[0-9a-f]{16}\n/);
  writeFileSync(snapshot, text.replace(/\nD-1\t[0-9a-f]{16}\t/, '\nD-1\t0123456789abcdef\t'));
  for (const threads of Object.values(THREADS)) {
    expect((await push(dir, files, threads, ['--dry-run'])).report.counts.deal).toMatchObject({ read: 3, skipped: 3 });
  }
  // the simple engine has no fingerprint shortcut: it builds D-1 and finds its hash changed
  const built = await push(dir, files, { BATCH_SYNC_ENGINE: 'simple' }, ['--dry-run']);
  expect(built.report.counts.deal).toMatchObject({ read: 3, skipped: 2, accepted: 1 });
});

test('--full sends every row and records their fingerprints for the next run', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': PROFILES, 'deals.csv': DEALS.replace('carla,carla', 'ana,ana') });
  const files = ['sales-profiles.csv', 'deals.csv'];
  const full = await push(dir, files, THREADS['one thread'], ['--full']);
  expect(full.report.counts.deal).toMatchObject({ accepted: 3 });
  const entries = readFileSync(join(dir, 'state', 'state.snapshot'), 'utf8')
    .split('\n')
    .filter((l) => /^D-/.test(l));
  expect(entries).toHaveLength(3);
  for (const e of entries) expect(e).toMatch(/^D-\d\t[0-9a-f]{16}\t[0-9a-f]{16}$/);
});

test.each(Object.entries(THREADS))(
  'through a profile too: an unchanged row is known by its ids, and held back when its owner failed (%s)',
  async (_, threads) => {
    // the profile mapper reads a known row's ids (refs) without mapping the rest: the owner's id comes
    // out of `slug`, so a wrong or missing one would let D-2 through as unchanged (its agent is fine)
    const profile = {
      resource: 'deal',
      reader: { delimiter: ';' },
      decimal: ',',
      fields: {
        externalId: 'Código',
        title: 'Oportunidad',
        ownerExternalId: { column: 'Vendedor', transform: 'slug' },
        agentExternalId: { column: 'Agente', transform: 'slug' },
        isWon: { column: 'Etapa', map: { Ganado: true }, otherwise: false },
        'amount.value': 'Monto',
        'amount.currency': { const: 'USD' },
      },
    };
    const deals = 'Código;Oportunidad;Vendedor;Agente;Etapa;Monto\nD-1;Uno;Ana;Ana;Ganado;10,50\nD-2;Dos;Bruno;Ana;Perdido;1.234,00\n';
    const plan = {
      jobs: [
        { file: 'sales-profiles.csv', resource: 'sales-profile' },
        { file: 'oportunidades.csv', resource: 'deal', profile: 'deals.profile.json' },
      ],
    };
    const dir = tempFiles({
      'sales-profiles.csv': PROFILES,
      'oportunidades.csv': deals,
      'deals.profile.json': JSON.stringify(profile),
      'batch-sync.config.json': JSON.stringify(plan),
    });
    const run = async () => {
      const r = await runCli(
        ['push', '--format', 'json', '--incremental', '--state-dir', join(dir, 'state'), '--config', join(dir, 'batch-sync.config.json')],
        { ...env, ...threads },
      );
      expect(r.stdout, r.stderr).not.toBe('');
      return JSON.parse(r.stdout) as Report;
    };
    expect((await run()).counts.deal).toMatchObject({ accepted: 2 });
    expect(dealIds(await run(), /^UNCHANGED/)).toEqual(['D-1', 'D-2']);
    writeFileSync(join(dir, 'sales-profiles.csv'), PROFILES.replace('bruno@example.com', 'not-an-email'));
    const again = await run();
    expect(dealIds(again, /^HELD_BACK/)).toEqual(['D-2']);
    expect(dealIds(again, /^UNCHANGED/)).toEqual(['D-1']);
  },
);
