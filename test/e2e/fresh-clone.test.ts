// A user's clone has nothing beside it. This copies the repository's files (what `git clone` would
// give: tracked and not-ignored files, no node_modules, no dist) into an empty folder and runs the
// README's set-up commands there exactly as written, so the main job cannot come to depend on
// ../shared or on anything else that is only on the team's machines.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { copyOfCheckout } from '../helpers/checkout-copy.js';
import { blockUnder } from '../helpers/doc-blocks.js';

const ROOT = resolve(__dirname, '../..');
const DATASET = join(ROOT, 'fixtures/outside/crm-sales-opportunities');

/** The commands of the README's set-up block that start with `npm ci &&`. */
function setUpCommands(): string[] {
  return blockUnder('README.md', '## Set-up')
    .body.split('\n')
    .filter((l) => l.startsWith('npm ci && '));
}

test('the README set-up block has the two commands: the main job on the sandbox, then the tests', () => {
  const commands = setUpCommands();
  expect(commands).toHaveLength(2);
  expect(commands[0]).toMatch(/^npm ci && \.\/bin\/batch-sync\.js push --sandbox /);
  expect(commands[1]).toBe('npm ci && npm test');
});

test('the shipped dataset is byte-identical to the published one (checksums in SHA256SUMS)', () => {
  const sums = readFileSync(join(DATASET, 'SHA256SUMS'), 'utf8').trim().split('\n');
  expect(sums.length).toBeGreaterThanOrEqual(5);
  for (const line of sums) {
    const [sum, name] = line.split(/\s+\*?/) as [string, string];
    const bytes = readFileSync(join(DATASET, name));
    expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(sum);
  }
  // where the team's copy is beside the checkout, the shipped one is the same bytes
  const team = resolve(ROOT, '../shared/datasets/crm-sales-opportunities');
  if (existsSync(team))
    for (const line of sums) {
      const name = line.split(/\s+\*?/)[1]!;
      expect(readFileSync(join(DATASET, name)).equals(readFileSync(join(team, name))), name).toBe(true);
    }
});

const alone = mkdtempSync(join(tmpdir(), 'batch-sync-alone-'));
afterAll(() => rmSync(alone, { recursive: true, force: true }));

test("the README's main job runs as written in a copy of the repository with nothing beside it", () => {
  const repo = copyOfCheckout(join(alone, 'repo'));
  expect(existsSync(join(alone, 'shared'))).toBe(false);
  const [mainJob] = setUpCommands();
  // npm ci takes its packages from a copy of the cache the checkout's own install filled: the
  // user's own npm cache is neither written nor left with an entry per temporary clone
  const userCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const cache = join(alone, 'npm-cache');
  if (existsSync(join(userCache, '_cacache'))) cpSync(join(userCache, '_cacache'), join(cache, '_cacache'), { recursive: true });
  const r = spawnSync('sh', ['-c', mainJob!], {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      npm_config_cache: cache,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    },
    timeout: 240_000,
  });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stdout).toMatch(/OK: all 8920 rows accepted/);
  // the run command is the clone's own executable: nothing was installed into npm's cache for it
  expect(existsSync(join(cache, '_npx'))).toBe(false);
}, 300_000);
