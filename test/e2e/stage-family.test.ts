// Issue 33 item 6 end to end: the shipped HubSpot export by property names (fixtures/hubspot-stages/),
// its stage in `date_entered_<stage>` columns, mapped by `latestOf` and `dropElementIfEmpty`: the
// same items from both engines (the fast one maps in the read worker), as docs/profiles.md shows.
import { readFileSync } from 'node:fs';
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
