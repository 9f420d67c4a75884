// The report's promise, over random exports and random valid profiles, through the CLI:
// batch-sync never crashes (exit 0, 1 or 2, never 70), and every data record the test wrote ends
// as exactly one outcome — accepted + rejected + invalid + skipped = records written — in validate
// and in push, and what push counts accepted is exactly what the sandbox now holds. The exports
// repeat rows (identical repeats, and ids repeated with other cells), and deals meet owners that
// exist, that are absent, that failed in the same run (held back), and the embedded sandbox,
// which holds back deals whose owner the run does not carry.
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

  interface Report {
    counts: Partial<Record<string, Totals>>;
    totals: Totals;
    groups: { outcome: string; reason: string; count: number }[];
  }
  const none: Totals = { read: 0, accepted: 0, rejected: 0, invalid: 0, skipped: 0 };
  const sum = (t: Totals) => t.accepted + t.rejected + t.invalid + t.skipped;
  /** Rows not accepted, but for those left out on purpose (skipIf, identical repeats): what the exit code follows. */
  const failed = (r: Report) =>
    r.totals.rejected +
    r.totals.invalid +
    r.totals.skipped -
    r.groups.filter((g) => g.outcome === 'skipped' && /^(SKIPPED|UNCHANGED|DUPLICATE_IDENTICAL)\b/.test(g.reason)).reduce((n, g) => n + g.count, 0);
  const seen = { runs: 0, unusable: 0, rejected: 0, invalid: 0, skipped: 0, accepted: 0, heldBack: 0, identical: 0, duplicate: 0 };
  /** ana's row is invalid (an e-mail that is none): in the same run, her deals are held back. */
  const FAILING_ANA = JSON.stringify([
    { externalId: 'ana', email: 'not an e-mail', profile: { firstName: 'Ana', lastName: 'Souza' } },
    { externalId: 'bruno', email: 'bruno@example.com', profile: { firstName: 'Bruno', lastName: 'Díaz' } },
  ]);

  /** The deals' owner `ana`: in no file, pushed before the run, or in the run but invalid there (her deals are held back). */
  type Owners = 'absent' | 'pushed before' | 'failing in the run';
  type ScenarioValue = { file: RandomExport; owners: Owners } & RandomProfile;

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
  const deal = {
    resource: 'deal' as const,
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
  };
  const EXAMPLES: [ScenarioValue][] = [
    // deals whose owner is in no file: the sandbox refuses them (rejected), the embedded one holds them back
    [{ file: clean(['id', 'nome'], [['D-7', 'x']]), owners: 'absent', ...deal }],
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
        owners: 'failing in the run',
        ...deal,
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
            ['A-1', 'Acme'],
          ],
        ),
        owners: 'pushed before',
        resource: 'account',
        profile: { resource: 'account', skipIf: { column: 'nome', empty: true }, fields: { externalId: 'id', name: 'nome', type: { const: 'COMPANY' } } },
      },
    ],
  ];

  const scenario: fc.Arbitrary<ScenarioValue> = fc
    .record({ file: randomExport, owners: fc.constantFrom<Owners>('absent', 'pushed before', 'failing in the run') })
    .chain((s) => randomProfile(s.file.header).map((p) => ({ ...s, ...p })));

  test('every row read ends as exactly one outcome, in validate and in push', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ file, owners, resource, profile }) => {
        const dir = tempFiles({ 'export.csv': writeCsv(file), 'sales-profiles.json': FAILING_ANA });
        writeFileSync(join(dir, 'random.profile.json'), JSON.stringify(profile));
        const inputs = [`${join(dir, 'export.csv')}:${join(dir, 'random.profile.json')}`];
        if (owners === 'failing in the run') inputs.unshift(join(dir, 'sales-profiles.json'));
        const args = ['--format', 'json', ...(file.explicitDelimiter ? ['--delimiter', file.delimiter] : [])];
        const expected = dataRecords(file);
        seen.runs++;

        const v = await runCli(['validate', ...args, ...inputs]);
        expect([0, 1, 2], v.stderr).toContain(v.code);
        expect(v.stderr).not.toMatch(/internal error|^\s+at /m);
        if (v.code === 2) {
          seen.unusable++;
          return;
        }
        const validReport = JSON.parse(v.stdout) as Report;
        const valid = validReport.counts[resource] ?? none;
        expect(valid.read).toBe(expected);
        expect(sum(valid)).toBe(expected);
        expect(v.code).toBe(failed(validReport) > 0 ? 1 : 0);

        sandbox.reset();
        if (resource === 'deal' && owners === 'pushed before') {
          const before = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV });
          expect((await runCli(['push', ...answerArgs, join(before, 'sales-profiles.csv')], env)).code).toBe(0);
        }
        const p = await runCli(['push', ...answerArgs, '--retry-delay', '10', ...args, ...inputs], env);
        expect([0, 1], p.stderr).toContain(p.code);
        expect(p.stderr).not.toMatch(/internal error|^\s+at /m);
        const pushedReport = JSON.parse(p.stdout) as Report;
        const pushed = pushedReport.counts[resource] ?? none;
        expect(pushed.read).toBe(expected);
        expect(sum(pushed)).toBe(expected);
        // nothing is counted accepted that the sandbox does not hold, and nothing it holds went uncounted
        expect(sandbox.records(resource)).toHaveLength(pushed.accepted);
        // the same rows fail locally in both commands; what validate called valid was sent
        expect(pushed.invalid).toBe(valid.invalid);
        expect(pushed.skipped).toBe(valid.skipped);
        expect(pushed.accepted + pushed.rejected).toBe(valid.accepted);
        expect(p.code).toBe(failed(pushedReport) > 0 ? 1 : 0);
        for (const k of ['accepted', 'rejected', 'invalid', 'skipped'] as const) if (pushed[k] > 0) seen[k]++;
        if (pushedReport.groups.some((g) => g.reason.startsWith('HELD_BACK'))) seen.heldBack++;
        if (pushedReport.groups.some((g) => g.reason.startsWith('DUPLICATE_IDENTICAL'))) seen.identical++;
        if (pushedReport.groups.some((g) => g.reason.startsWith('DUPLICATE '))) seen.duplicate++;

        // the embedded sandbox starts empty: deals whose owner the run does not carry are held back, never sent
        if (resource === 'deal' && owners === 'absent') {
          const e = await runCli(['push', '--sandbox', ...answerArgs, ...args, ...inputs]);
          expect([0, 1], e.stderr).toContain(e.code);
          const embedded = JSON.parse(e.stdout) as Report;
          const deals = embedded.counts.deal ?? none;
          expect(sum(deals)).toBe(expected);
          expect(deals.accepted).toBe(0);
          expect(deals.skipped).toBe(valid.skipped + valid.accepted);
          expect(e.stderr).toContain('The embedded sandbox now holds: 0 sales-profiles, 0 accounts, 0 deals');
          expect(e.code).toBe(failed(embedded) > 0 ? 1 : 0);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 60), examples: EXAMPLES },
    );
    // the property is only worth something if the runs reached every outcome and mostly read the file
    expect(seen.unusable).toBeLessThan(seen.runs / 4);
    for (const k of ['accepted', 'rejected', 'invalid', 'skipped', 'heldBack', 'identical', 'duplicate'] as const) expect(seen[k], k).toBeGreaterThan(0);
  }, 120_000);
});
