// The report's promise, over random exports and random valid profiles, through the CLI:
// batch-sync never crashes (exit 0, 1 or 2, never 70), and every data record the test wrote ends
// as exactly one outcome — accepted + rejected + invalid + skipped = records written — in validate
// and in push, and what push counts accepted is exactly what the sandbox now holds.
// PROPERTY_RUNS=3000 npx vitest run test/property for a longer hunt (about 17 s).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { ANSWER_STYLES_UNDER_TEST, sandboxPerFile } from '../helpers/sandbox.js';
import { SALES_PROFILES_CSV, runCli, tempFiles } from '../helpers/cli.js';
import { dataRecords, randomExport, writeCsv, type RandomExport } from './random-export.js';
import { randomProfile, type RandomProfile } from './random-profile.js';

const KEY = 'property-key-0123456789';
let sandbox: SandboxHandle;
let env: Record<string, string>;
describe.each(ANSWER_STYLES_UNDER_TEST)('answers $style', ({ style, args: answerArgs }) => {
  sandboxPerFile(
    KEY,
    (s, e) => {
      sandbox = s;
      env = e;
    },
    { answers: style },
  );

  interface Totals {
    read: number;
    accepted: number;
    rejected: number;
    invalid: number;
    skipped: number;
  }

  const sum = (t: Totals) => t.accepted + t.rejected + t.invalid + t.skipped;
  const seen = { runs: 0, unusable: 0, rejected: 0, invalid: 0, skipped: 0, accepted: 0 };

  type ScenarioValue = { file: RandomExport; ownerExists: boolean } & RandomProfile;

  // Fixed examples run first, so every outcome is reached on every run whatever the random seed
  const clean = (header: string[], rows: string[][]): RandomExport => ({
    header,
    rows,
    delimiter: ',',
    explicitDelimiter: false,
    lineEnding: '\n',
    bom: false,
    trailingNewline: true,
    endings: [0],
  });
  const EXAMPLES: [ScenarioValue][] = [
    [
      {
        file: clean(
          ['id', 'nome'],
          [
            ['D-1', 'ok'],
            ['D-2', ''],
            ['D-1', 'again'],
            ['', 'no id'],
          ],
        ),
        ownerExists: false,
        resource: 'deal',
        profile: {
          resource: 'deal',
          fields: {
            externalId: 'id',
            title: 'nome',
            ownerExternalId: { const: 'ana' },
            agentExternalId: { const: 'ana' },
            isWon: { const: false },
            'amount.value': { const: '1' },
            'amount.currency': { const: 'USD' },
          },
        },
      },
    ],
    [
      {
        file: clean(
          ['id', 'nome'],
          [
            ['A-1', 'Acme'],
            ['A-2', ''],
            ['A-3', '#N/A'],
            ['A-4', 'x'],
          ],
        ),
        ownerExists: true,
        resource: 'account',
        profile: { resource: 'account', skipIf: { column: 'nome', empty: true }, fields: { externalId: 'id', name: 'nome', type: { const: 'COMPANY' } } },
      },
    ],
  ];

  const scenario: fc.Arbitrary<ScenarioValue> = fc
    .record({ file: randomExport, ownerExists: fc.boolean() })
    .chain((s) => randomProfile(s.file.header).map((p) => ({ ...s, ...p })));

  test('every row read ends as exactly one outcome, in validate and in push', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ file, ownerExists, resource, profile }) => {
        const dir = tempFiles({ 'export.csv': writeCsv(file) });
        writeFileSync(join(dir, 'random.profile.json'), JSON.stringify(profile));
        const args = ['--format', 'json', '-p', join(dir, 'random.profile.json'), ...(file.explicitDelimiter ? ['--delimiter', file.delimiter] : [])];
        const expected = dataRecords(file);
        seen.runs++;

        const v = await runCli(['validate', ...args, join(dir, 'export.csv')]);
        expect([0, 1, 2], v.stderr).toContain(v.code);
        expect(v.stderr).not.toMatch(/internal error|^\s+at /m);
        if (v.code === 2) {
          seen.unusable++;
          return;
        }
        const valid = JSON.parse(v.stdout).totals as Totals;
        expect(valid.read).toBe(expected);
        expect(sum(valid)).toBe(expected);
        expect(v.code).toBe(valid.rejected + valid.invalid > 0 ? 1 : 0);

        sandbox.reset();
        if (resource === 'deal' && ownerExists) {
          const owners = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV });
          expect((await runCli(['push', ...answerArgs, join(owners, 'sales-profiles.csv')], env)).code).toBe(0);
        }
        const p = await runCli(['push', ...answerArgs, '--retry-delay', '10', ...args, join(dir, 'export.csv')], env);
        expect([0, 1], p.stderr).toContain(p.code);
        expect(p.stderr).not.toMatch(/internal error|^\s+at /m);
        const pushed = JSON.parse(p.stdout).totals as Totals;
        expect(pushed.read).toBe(expected);
        expect(sum(pushed)).toBe(expected);
        // nothing is counted accepted that the sandbox does not hold, and nothing it holds went uncounted
        expect(sandbox.records(resource)).toHaveLength(pushed.accepted);
        // the same rows fail locally in both commands; what validate called valid was sent
        expect(pushed.invalid).toBe(valid.invalid);
        expect(pushed.skipped).toBe(valid.skipped);
        expect(pushed.accepted + pushed.rejected).toBe(valid.accepted);
        expect(p.code).toBe(pushed.rejected + pushed.invalid > 0 ? 1 : 0);
        for (const k of ['accepted', 'rejected', 'invalid', 'skipped'] as const) if (pushed[k] > 0) seen[k]++;
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 60), examples: EXAMPLES },
    );
    // the property is only worth something if the runs reached every outcome and mostly read the file
    expect(seen.unusable).toBeLessThan(seen.runs / 4);
    for (const k of ['accepted', 'rejected', 'invalid', 'skipped'] as const) expect(seen[k], k).toBeGreaterThan(0);
  }, 120_000);
});
