// `push --dry-run --incremental`: what the next push would do against the state, per resource —
// new, changed, unchanged — in every format, sending nothing and recording nothing.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { junitSchemaErrors } from '../helpers/junit-schema.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { parseWorkflowCommands } from '../helpers/workflow-commands.js';

const KEY = 'preview-key-5d2c9e0a7b31';
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
});
afterAll(() => sandbox.close());

/** Every file under the state directory, with its bytes and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, f);
    const st = statSync(path);
    out[f] = st.isFile() ? `${st.mtimeMs} ${readFileSync(path, 'base64')}` : `dir ${st.mtimeMs}`;
  }
  return out;
}

test('a dry run against the state counts new, changed and unchanged rows per resource in every format, and leaves the state byte-identical', async () => {
  const rows = (lines: string[]) => ['externalId,name,type', ...lines].join('\n');
  const dir = tempFiles({ 'accounts.csv': rows(['A-1,One,COMPANY', 'A-2,Two,COMPANY', 'A-3,Three,COMPANY', 'A-4,Four,COMPANY']) });
  const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url };
  const first = await spawnCli(['push', '--incremental', '--state-dir', 'state', '--quiet', 'accounts.csv'], { cwd: dir, env });
  expect(first.code, first.stderr).toBe(0);

  // A-2 changed, A-5 and A-6 new, A-7 invalid, A-1 A-3 A-4 unchanged
  writeFileSync(
    join(dir, 'accounts.csv'),
    rows(['A-1,One,COMPANY', 'A-2,Two (renamed),COMPANY', 'A-3,Three,COMPANY', 'A-4,Four,COMPANY', 'A-5,Five,COMPANY', 'A-6,Six,COMPANY', 'A-7,,COMPANY']),
  );
  const before = snapshot(join(dir, 'state'));
  const batches = sandbox.batches().length;
  const dry = ['push', '--dry-run', '--incremental', '--state-dir', 'state', 'accounts.csv'];

  const human = await spawnCli([...dry, '--junit', 'preview.xml'], { cwd: dir, env });
  expect(human.code).toBe(1);
  expect(human.stdout).toContain('Against the state (nothing was recorded):\n  account: 2 new, 1 changed, 3 unchanged\n');

  const json = await spawnCli([...dry, '--format', 'json'], { cwd: dir, env });
  expect(JSON.parse(json.stdout).preview).toEqual({ account: { new: 2, changed: 1, unchanged: 3 } });

  const github = await spawnCli([...dry, '--format', 'github'], { cwd: dir, env: { ...env, GITHUB_STEP_SUMMARY: join(dir, 'summary.md') } });
  expect(parseWorkflowCommands(github.stdout).at(-1)!.message).toMatch(/; against the state: account: 2 new, 1 changed, 3 unchanged$/);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('| account | 2 | 1 | 3 |');

  const xml = readFileSync(join(dir, 'preview.xml'), 'utf8');
  expect(xml).toContain('<property name="preview.new" value="2"/><property name="preview.changed" value="1"/><property name="preview.unchanged" value="3"/>');
  expect(await junitSchemaErrors(xml)).toEqual([]);

  // nothing sent, nothing recorded: the state is as the push left it, to the byte and the mtime
  expect(sandbox.batches()).toHaveLength(batches);
  expect(snapshot(join(dir, 'state'))).toEqual(before);

  // and the push that follows does what the preview said
  const push = await spawnCli(['push', '--incremental', '--state-dir', 'state', '--format', 'json', 'accounts.csv'], { cwd: dir, env });
  const sent = sandbox
    .batches()
    .slice(batches)
    .reduce((n, b) => n + b.items, 0);
  expect(sent).toBe(3);
  expect(JSON.parse(push.stdout).preview).toBeNull();
});
