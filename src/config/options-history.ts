// `batch-sync history`'s options, declared once (see option.ts), and where it finds the archived
// runs: the report directory a push of the same plan and flags writes to.
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { resolveOptions, type GivenFlags, type OptionTable } from './option.js';
import { int } from './option-schemas.js';
import { INPUT_OPTIONS, NIGHTLY_OPTIONS, REPORT_OPTIONS } from './options.js';
import { DEFAULT_STATE_DIR } from './settings.js';
import type { SyncPlan } from './sync-plan.js';

export const HISTORY_OPTIONS = {
  config: INPUT_OPTIONS.config,
  stateDir: { ...NIGHTLY_OPTIONS.stateDir, schema: z.string().describe('the state directory whose archived runs to show (default: as push finds it)') },
  reportDir: {
    ...NIGHTLY_OPTIONS.reportDir,
    schema: z.string().describe('the report directory, when push was given --report-dir (default: <state-dir>/reports)'),
  },
  last: { flag: '--last <n>', default: 20, schema: int(1, 100_000).describe('show the last n runs (default 20)') },
  format: {
    flag: '--format <format>',
    default: 'human',
    helpDefault: 'human',
    schema: z.enum(['human', 'json']).describe('human: a table and charts; json: one document'),
  },
  html: {
    ...REPORT_OPTIONS.html,
    group: undefined,
    schema: z.string().describe('also write the runs as one HTML page of charts, each run linking to its report'),
  },
} satisfies OptionTable;

/** `batch-sync report`'s: the page to write. */
export const ARCHIVED_REPORT_OPTIONS = {
  html: { ...REPORT_OPTIONS.html, group: undefined, schema: z.string().describe('the HTML page to write: outcome bars, reasons with their rows') },
} satisfies OptionTable;

/** The history's settings; paths from flags are relative to the working directory, from the plan to the plan file. */
export function resolveHistory(given: GivenFlags, plan: SyncPlan | undefined, cwd: string) {
  const v = resolveOptions(HISTORY_OPTIONS, given, {}, plan);
  const base = (key: 'stateDir' | 'reportDir') => (given[key] !== undefined ? cwd : (plan?.dir ?? cwd));
  const stateDir = resolve(base('stateDir'), v.stateDir ?? DEFAULT_STATE_DIR);
  const reportDir = v.reportDir !== undefined ? resolve(base('reportDir'), v.reportDir) : join(stateDir, 'reports');
  return { reportDir, last: v.last, format: v.format, html: v.html };
}
