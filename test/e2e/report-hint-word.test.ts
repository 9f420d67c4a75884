// Issue 33 item 7: a grouped report line masks the values that differ row to row ("2024-01-02",
// "2024-01-03" → "…"), but not the word its hint names: `add a "map"`, `set "format"` are the
// same on every row, and without the word the hint says nothing.
import { expect, test } from 'vitest';
import { runCli, tempFiles } from '../helpers/cli.js';

const PROFILE = {
  resource: 'deal',
  fields: {
    externalId: 'id',
    title: 'title',
    ownerExternalId: 'owner',
    agentExternalId: 'owner',
    isWon: 'won',
    'amount.value': 'amount',
    'amount.currency': { const: 'USD' },
    closeDate: 'closed',
  },
};

test('the grouped line keeps the hint word; the rows under it keep their values', async () => {
  const dir = tempFiles({
    'deals.csv': [
      'id,title,owner,won,amount,closed',
      'D1,A,ana,2024-01-02,10,',
      'D2,B,ana,2024-01-03,20,',
      'D3,C,ana,yes,30,03/04/2024',
      'D4,D,ana,no,40,05/06/2024',
    ].join('\n'),
    'deals.profile.json': JSON.stringify(PROFILE),
  });
  const r = await runCli(['validate', `${dir}/deals.csv`]);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toContain('2 rows: INVALID won → isWon: "…" is not a yes/no value (true/false, yes/no, sí/no, sim/não, 1/0); add a "map"\n');
  expect(r.stdout).toContain('deals.csv:2  D1  won → isWon: "2024-01-02" is not a yes/no value (true/false, yes/no, sí/no, sim/não, 1/0); add a "map"');
  expect(r.stdout).toMatch(/^2 rows: INVALID closed → closeDate: "…" could be DD\/MM\/YYYY or MM\/DD\/YYYY; set "format" in the profile$/m);
});
