// Identical repeats in nightly incremental runs (issue 25 item 4): a rerun finds the first row
// unchanged by its text (no item built), and a later row with another text but the same item must
// still be an identical repeat — the case of sales profiles derived from a deals file, where every
// deal of an owner repeats that owner's profile — whichever thread reads the rows.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';

const KEY = 'repeated-rows-key-0001';
let env: Record<string, string>;
let held: (kind: 'account') => number;
sandboxPerFile(
  KEY,
  (sandbox, e) => {
    env = e;
    held = (kind) => sandbox.records(kind).length;
  },
  { reset: true },
);

const THREADS = {
  'one thread': { BATCH_SYNC_ENGINE: 'auto' },
  'the read worker': { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: 'none' },
} as const;

// `note` is not mapped: rows 2 and 4 differ in text, not in their item
const ACCOUNTS = ['id,name,note', 'A-1,Acme,first', 'A-2,Beta,', 'A-1,Acme,second', 'A-1,Acme,first'].join('\n');
const PROFILE = JSON.stringify({ resource: 'account', fields: { externalId: 'id', name: 'name', type: { const: 'COMPANY' } } });

test.each(Object.entries(THREADS))('reruns keep identical repeats identical, whatever their text (%s)', async (_, threads) => {
  const dir = tempFiles({ 'accounts.csv': ACCOUNTS, 'accounts.profile.json': PROFILE });
  const push = async () => {
    const r = await runCli(['push', '--format', 'json', '--incremental', '--state-dir', join(dir, 'state'), join(dir, 'accounts.csv')], { ...env, ...threads });
    const report = JSON.parse(r.stdout);
    return { code: r.code, groups: report.groups.map((g: { reason: string; count: number }) => [g.reason.replaceAll(`${dir}/`, ''), g.count]) };
  };
  const first = await push();
  expect(first.code).toBe(0);
  expect(first.groups).toEqual([['DUPLICATE_IDENTICAL rows repeat an earlier row exactly (first at accounts.csv:2): sent once', 2]]);
  for (let night = 0; night < 2; night++) {
    const again = await push();
    expect(again.code, JSON.stringify(again.groups)).toBe(0);
    expect(again.groups).toEqual([
      ['UNCHANGED unchanged since the server last accepted it (incremental mode)', 2],
      ['DUPLICATE_IDENTICAL rows repeat an earlier row exactly (first at accounts.csv:2): sent once', 2],
    ]);
  }
  expect(held('account')).toBe(2);
});
