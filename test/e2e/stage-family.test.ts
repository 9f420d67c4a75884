// Issue 33 item 6 end to end: the shipped HubSpot export by property names (fixtures/hubspot-stages/),
// its stage in `date_entered_<stage>` columns, mapped by `latestOf` and `dropElementIfEmpty`: the
// same items from both engines (the fast one maps in the read worker), as docs/profiles.md shows.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');

test('the current stage is the latest date of the family; history only where a date is filled; both engines alike', async () => {
  const emitted: string[] = [];
  for (const engine of ['simple', 'fast']) {
    const dir = tempFiles({});
    const r = await spawnCli(['validate', '--engine', engine, '--emit', join(dir, 'items.ndjson'), 'fixtures/hubspot-stages/deals.csv'], { cwd: ROOT });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('OK: all 4 rows valid.');
    emitted.push(readFileSync(join(dir, 'items.ndjson'), 'utf8').replace(/"batchId":"[^"]*"/g, '"batchId":""'));
  }
  expect(emitted[1]).toBe(emitted[0]);
  const items = emitted[0]!
    .trim()
    .split('\n')
    .flatMap(
      (line) => (JSON.parse(line) as { items: { externalId: string; isWon: boolean; currentStage: { value: string }; stages?: { value: string }[] }[] }).items,
    );
  expect(items.map((d) => [d.externalId, d.isWon, d.currentStage.value, (d.stages ?? []).map((s) => s.value).join(' > ')])).toEqual([
    ['1001', true, 'Closed won', 'Appointment scheduled > Qualified to buy > Contract sent > Closed won'],
    ['1002', false, 'Closed lost', 'Appointment scheduled > Closed lost'],
    ['1003', false, 'Qualified to buy', 'Appointment scheduled > Qualified to buy'],
    ['1004', false, 'Qualified to buy', 'Appointment scheduled > Qualified to buy > Contract sent'],
  ]);
});

test("init proposes the family itself: with its placeholders filled (the pipeline, the derived owners' e-mail), push --sandbox accepts every deal, won and stage as the dates say", async () => {
  const dir = tempFiles({ 'deals.csv': readFileSync(join(ROOT, 'fixtures/hubspot-stages/deals.csv'), 'utf8') });
  const init = await spawnCli(['init', 'deals.csv'], { cwd: dir });
  expect(init.code, init.stdout + init.stderr).toBe(0);
  expect(init.stdout).toMatch(/currentStage\.value\s+← the latest of "date_entered_\*"\n/);
  const profile = join(dir, 'deals.profile.json');
  writeFileSync(profile, readFileSync(profile, 'utf8').replace('<FILL IN: pipeline name>', 'Sales Pipeline'));
  const owners = join(dir, 'deals.sales-profile.profile.json');
  writeFileSync(owners, readFileSync(owners, 'utf8').replace(/<FILL IN: e-mail, e\.g\. (\{[^}]+\})@yourcompany\.com>/, '$1@example.com'));
  const push = await spawnCli(['push', '--sandbox', '--config', 'batch-sync.config.json'], { cwd: dir });
  expect(push.code, push.stdout + push.stderr).toBe(0);
  expect(push.stdout).toContain('OK: all 6 rows accepted, 2 skipped.');
  const dry = await spawnCli(['push', '--dry-run', '--emit', 'sent.ndjson', '--config', 'batch-sync.config.json'], { cwd: dir });
  expect(dry.code, dry.stdout + dry.stderr).toBe(0);
  const deals = readFileSync(join(dir, 'sent.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .flatMap((line) => (JSON.parse(line) as { items: { externalId: string; isWon?: boolean; currentStage?: { value: string } }[] }).items)
    .filter((d) => d.currentStage);
  expect(deals.map((d) => [d.externalId, d.isWon, d.currentStage!.value])).toEqual([
    ['1001', true, 'closedwon'],
    ['1002', false, 'closedlost'],
    ['1003', false, 'qualifiedtobuy'],
    ['1004', false, expect.any(String)],
  ]);
}, 60_000);
