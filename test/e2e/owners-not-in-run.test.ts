// Issue 15 item 7: deals whose owners are not among the run's sales profiles are said once in the
// report ("owners not in this run: N distinct ids…"), whether or not the run carries sales profiles.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SALES_PROFILES_CSV, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';

const LINE = (n: number) => `owners not in this run: ${n} distinct ${n === 1 ? 'id, it' : 'ids, they'} must already exist on the server`;
// owners ana, bruno and carla (carla is in no sales-profile file)
const deals = dealsCsv(9, { owner: (i) => ['ana', 'bruno', 'carla'][i % 3]! });

test('validate of the deals alone says once how many distinct owners the run does not carry (human and json)', async () => {
  const dir = tempFiles({ 'deals.csv': deals });
  const human = await spawnCli(['validate', join(dir, 'deals.csv')]);
  expect(human.code).toBe(0);
  expect(human.stdout.split('\n').filter((l) => l.startsWith('owners not in this run'))).toEqual([LINE(3)]);
  const json = await spawnCli(['validate', join(dir, 'deals.csv'), '--format', 'json']);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout).ownersNotInRun).toBe(3);
});

test('with the sales profiles in the run: only the owners missing from them are counted; none missing, nothing said', async () => {
  const dir = tempFiles({ 'deals.csv': deals, 'sales-profiles.csv': SALES_PROFILES_CSV });
  const some = await spawnCli(['validate', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv'), '--format', 'json']);
  expect(JSON.parse(some.stdout).ownersNotInRun).toBe(1);
  const human = await spawnCli(['validate', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')]);
  expect(human.stdout).toContain(LINE(1));
  // the per-row warnings stay as they were
  expect(human.stdout).toContain('owner "carla" is not among this run\'s sales-profiles');

  const all = tempFiles({ 'deals.csv': dealsCsv(4), 'sales-profiles.csv': SALES_PROFILES_CSV });
  const none = await spawnCli(['validate', join(all, 'sales-profiles.csv'), join(all, 'deals.csv')]);
  expect(none.code).toBe(0);
  expect(none.stdout).not.toContain('owners not in this run');
  const noneJson = await spawnCli(['validate', join(all, 'sales-profiles.csv'), join(all, 'deals.csv'), '--format', 'json']);
  expect(JSON.parse(noneJson.stdout).ownersNotInRun).toBe(0);
});
