// Every shipped fixture pushes cleanly into the embedded sandbox by the command the sandbox guide
// (docs/sandbox.md, "The shipped fixtures") gives for it: the commands are read from the guide
// itself, so the two cannot drift apart.
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { dealsCsv, SALES_PROFILES_CSV, spawnCli, tempFiles } from '../helpers/cli.js';
import { docCommands } from '../helpers/readme.js';

const ROOT = resolve(__dirname, '../..');

const commands = docCommands('docs/sandbox.md', '## The shipped fixtures');

test('the sandbox guide has a push --sandbox command for every shipped fixture folder', () => {
  for (const folder of ['canonical', 'crm-sales-opportunities', 'es-excel', 'es-reporte', 'hubspot', 'salesforce']) {
    expect(
      commands.some((c) => c.startsWith('batch-sync push --sandbox') && c.includes(`fixtures/${folder}/`)),
      folder,
    ).toBe(true);
  }
});

test.each(commands)('%s: exit 0, nothing rejected', async (command) => {
  const args = command.split(/\s+/).slice(1);
  const r = await spawnCli(args, { cwd: ROOT });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stderr).toMatch(/ OK exit=0 read=\d+ accepted=\d+ rejected=0 invalid=0 /);
});

test('a deals file alone into the empty embedded sandbox: the report says how to include the sales profiles', async () => {
  const r = await spawnCli(['push', '--sandbox', 'fixtures/hubspot/deals.csv'], { cwd: ROOT });
  expect(r.code).toBe(1);
  const flat = r.stdout.replace(/\s+/g, ' ');
  expect(flat).toContain(
    'The embedded sandbox starts empty and refuses a deal or activity whose owner or agent it does not hold: 3 owner/agent ids of this run\'s deals and activities are in none of its sales profiles ("ana-souza", "bruno-diaz", "camila-rojas"), so their rows were held back.',
  );
  // no sales-profiles file lies beside these deals: none is made up (the old hint named a file that did not exist)
  expect(flat).toContain("Add them to the run's sales profiles (a users export, or profiles derived from the deals' owner column).");
  // the summary line stays the last line on stderr
  expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^batch-sync push: run \S+ FAILED exit=1 /);
});

test('a sales-profiles file beside the deals is named in the hint, so the command shown works as printed', async () => {
  const r = await spawnCli(['push', '--sandbox', 'fixtures/canonical/deals.csv'], { cwd: ROOT });
  expect(r.code).toBe(1);
  const hint = './bin/batch-sync.js push --sandbox fixtures/canonical/sales-profiles.csv fixtures/canonical/deals.csv';
  expect(r.stdout).toContain(`Push the sellers in the same run (they are sent first, whatever the order):\n  ${hint}\n`);
  const again = await spawnCli(hint.split(' ').slice(1), { cwd: ROOT });
  expect(again.code, again.stdout).toBe(0);
});

test('a run whose refusals have other causes, with every owner present, gets no such hint', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(2) });
  // the sandbox knows every owner, and refuses nothing: no hint
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toContain('starts empty');
});

test('with --format json the hint and the sandbox line go to stderr, and the summary line is still the last', async () => {
  const r = await spawnCli(['push', '--sandbox', '--format', 'json', 'fixtures/hubspot/deals.csv'], { cwd: ROOT });
  expect(r.code).toBe(1);
  JSON.parse(r.stdout);
  expect(r.stderr).toContain('The embedded sandbox starts empty');
  expect(r.stderr).toContain('The embedded sandbox now holds: 0 sales-profiles');
  expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^batch-sync push: run \S+ FAILED exit=1 /);
});
