// Warnings cost the same memory however many rows carry one (issue 29.9): validate of a workbook
// whose every row draws a warning (an account type the spec never showed) peaked at 3 times the
// same workbook without (372 against 131 MB at 300,000 rows), as every warning up to 100,000 was
// kept for the report. Now only a count and the first examples per reason are.
//
// Measured as the main thread's old space, not the process's peak RSS: the fast engine's peak moves
// with the read worker's and the allocator's timing by more than the warnings ever cost (a clean
// run at 186–191 MB, the same rows each warned at 195–320 MB on Node 24, in one host's runs). Under
// --max-old-space-size=64 the run either fits or dies, whatever the timing. At 300,000 rows the flat
// collector fits in 32 MB (both engines, both formats); a build keeping every Diagnostic dies at 64
// MB on both engines (exit 134, checked by hand, 2026-11-28). Memory only: times are the bench's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type MeasuredRun, runMeasured } from '../helpers/measured-cli.js';
// @ts-expect-error: a plain .mjs module without types
import { generateAccountsXlsx } from '../bench/generate-xlsx.mjs';

const ROWS = 300_000;
const OLD_SPACE_MB = 64;
let dir: string;
let warned: string;

function validate(file: string, format: string): Promise<MeasuredRun> {
  return runMeasured(['validate', file, '--resource', 'account', '--format', format], { dir, node: [`--max-old-space-size=${OLD_SPACE_MB}`] });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'batch-sync-warnings-'));
  warned = await generateAccountsXlsx(dir, ROWS, 'PARTNER', 'warned');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(`validate of ${ROWS} rows each with a warning fits a ${OLD_SPACE_MB} MB old space, in JSON and human reports`, async () => {
  const json = await validate(warned, 'json');
  expect(json.code, json.stderr.slice(-1500)).toBe(0);
  const human = await validate(warned, 'human');
  expect(human.code, human.stderr.slice(-1500)).toBe(0);

  // every warning counted, under one reason, its first examples listed and the rest only counted
  const report = JSON.parse(json.stdout);
  expect(report.totals).toMatchObject({ read: ROWS, accepted: ROWS, warnings: ROWS });
  expect(report.warningGroups).toHaveLength(1);
  expect(report.warningGroups[0]).toMatchObject({ resource: 'account', count: ROWS });
  expect(report.warnings).toEqual(report.warningGroups[0].examples);
  expect(report.warningsNotListed).toBe(ROWS - report.warnings.length);
  expect(human.stdout).toContain(`Warnings (${ROWS})`);
  expect(human.stdout).toContain(`… and ${ROWS - report.warnings.length} more`);
}, 300_000);
