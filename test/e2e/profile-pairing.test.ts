// Which profile maps which file: `FILE:PROFILE`, a `<file>.profile.json` beside the file (where
// `init` writes it), or one --profile; anything ambiguous is refused before a row is read.
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { runCli, tempFiles } from '../helpers/cli.js';

const F = (p: string) => resolve(__dirname, '../../fixtures', p);

/** The HubSpot and Salesforce exports, each with its own profile, in one folder. */
function twoExports(opts: { beside?: boolean } = {}): string {
  const dir = tempFiles({});
  copyFileSync(F('hubspot/deals.csv'), join(dir, 'hubspot.csv'));
  copyFileSync(F('salesforce/opportunities.csv'), join(dir, 'salesforce.csv'));
  const names = opts.beside ? ['hubspot.profile.json', 'salesforce.profile.json'] : ['ph.json', 'ps.json'];
  copyFileSync(F('hubspot/deals.profile.json'), join(dir, names[0]!));
  copyFileSync(F('salesforce/opportunities.profile.json'), join(dir, names[1]!));
  return dir;
}

test('two --profile for two files is refused with exit 2, naming the files, instead of applying the last to both', async () => {
  const dir = twoExports();
  const [a, b] = [join(dir, 'hubspot.csv'), join(dir, 'salesforce.csv')];
  const r = await runCli(['validate', a, b, '--profile', join(dir, 'ph.json'), '--profile', join(dir, 'ps.json')]);
  expect(r.code).toBe(2);
  const first = r.stderr.split('\n')[0]!;
  expect(first).toContain(a);
  expect(first).toContain(b);
  expect(first).toContain('FILE:PROFILE');
  expect(r.stdout).toBe('');
});

test('FILE:PROFILE pairs each file with its own profile', async () => {
  const dir = twoExports();
  const r = await runCli([
    'validate',
    '--format',
    'json',
    `${join(dir, 'hubspot.csv')}:${join(dir, 'ph.json')}`,
    `${join(dir, 'salesforce.csv')}:${join(dir, 'ps.json')}`,
  ]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).totals).toMatchObject({ read: 8, accepted: 8, invalid: 0 });
});

test('a <file>.profile.json beside the file (where init writes it) is picked up, and said so', async () => {
  const dir = twoExports({ beside: true });
  const r = await runCli(['validate', '--format', 'json', join(dir, 'hubspot.csv'), join(dir, 'salesforce.csv')]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).totals).toMatchObject({ read: 8, accepted: 8, invalid: 0 });
  expect(r.stderr).toContain(`profile ${join(dir, 'hubspot.profile.json')} for ${join(dir, 'hubspot.csv')} (found beside it)`);
});

test('one --profile for several files, one of which has another profile beside it, is ambiguous: exit 2', async () => {
  // both are HubSpot exports, so applying the one profile to both would "work": it must still be refused
  const dir = twoExports();
  const [a, b] = [join(dir, 'hubspot.csv'), join(dir, 'hubspot-2.csv')];
  copyFileSync(a, b);
  copyFileSync(F('hubspot/deals.profile.json'), join(dir, 'hubspot-2.profile.json'));
  const r = await runCli(['validate', a, b, '--profile', join(dir, 'ph.json')]);
  expect(r.code).toBe(2);
  expect(r.stderr.split('\n')[0]).toContain(`${b} has ${join(dir, 'hubspot-2.profile.json')} beside it`);
  // without the one beside it, one --profile still maps every file
  rmSync(join(dir, 'hubspot-2.profile.json'));
  const ok = await runCli(['validate', a, b, '--profile', join(dir, 'ph.json')]);
  expect(ok.stderr).not.toContain('beside it');
  expect(ok.stdout).toContain('read');
});

test('a single --profile with a single file wins over the one beside it, as before', async () => {
  const dir = twoExports({ beside: true });
  // the Salesforce profile beside hubspot.csv would fail on its columns; the named one is used
  copyFileSync(F('salesforce/opportunities.profile.json'), join(dir, 'hubspot.profile.json'));
  const r = await runCli(['validate', '--format', 'json', join(dir, 'hubspot.csv'), '--profile', F('hubspot/deals.profile.json')]);
  expect(r.code, r.stderr).toBe(0);
});

test('a file whose own name holds a colon is read as that file', async () => {
  const dir = tempFiles({});
  const odd = join(dir, 'deals:2024.json');
  writeFileSync(
    odd,
    JSON.stringify([
      {
        externalId: 'D-1',
        title: 'x',
        ownerExternalId: 'a',
        agentExternalId: 'a',
        isWon: false,
        amount: { value: '1', currency: 'USD' },
        currentStage: { pipelineName: 'p', value: 'v' },
      },
    ]),
  );
  const r = await runCli(['validate', '--resource', 'deal', '--format', 'json', odd]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).totals).toMatchObject({ read: 1, accepted: 1 });
});

test('a sync plan job without a profile takes the one beside its file too, so both paths map a file alike', async () => {
  const dir = twoExports({ beside: true });
  writeFileSync(
    join(dir, 'batch-sync.config.json'),
    JSON.stringify({ jobs: [{ file: 'hubspot.csv' }, { file: 'salesforce.csv', profile: 'salesforce.profile.json' }] }),
  );
  const r = await runCli(['validate', '--format', 'json', '--config', join(dir, 'batch-sync.config.json')]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).totals).toMatchObject({ read: 8, accepted: 8, invalid: 0 });
  expect(r.stderr).toContain(`profile ${join(dir, 'hubspot.profile.json')} for ${join(dir, 'hubspot.csv')} (found beside it)`);
  expect(r.stderr).not.toContain('salesforce.profile.json for');
});

test("FILE:KIND names a file's kind, as init takes it; --resource applies to the files not paired with one", async () => {
  const dir = tempFiles({});
  copyFileSync(F('canonical/sales-profiles.csv'), join(dir, 'people.csv'));
  copyFileSync(F('canonical/deals.csv'), join(dir, 'export.csv'));
  // neither name says its kind: without a pairing the run cannot tell
  const unpaired = await runCli(['validate', join(dir, 'people.csv'), join(dir, 'export.csv')]);
  expect(unpaired.code).toBe(2);
  expect(unpaired.stderr).toContain('cannot tell which resource this file holds');
  const paired = await runCli(['validate', '--format', 'json', `${join(dir, 'people.csv')}:sales-profiles`, join(dir, 'export.csv'), '--resource', 'deal']);
  expect(paired.code, paired.stderr).toBe(0);
  const report = JSON.parse(paired.stdout);
  expect(report.counts['sales-profile'].accepted).toBeGreaterThan(0);
  expect(report.counts.deal.accepted).toBeGreaterThan(0);
  // the kind and a profile that maps another kind cannot both hold
  const clash = await runCli(['validate', `${F('hubspot/deals.csv')}:account`]);
  expect(clash.code).toBe(2);
  expect(clash.stderr.split('\n')[0]).toContain('maps deal items');
});

test('push --help and validate --help name FILE:KIND', async () => {
  for (const command of ['push', 'validate']) {
    const help = (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('FILE:PROFILE');
    expect(help).toContain('FILE:KIND');
  }
});
