// An archived run's report.json (render-json.ts's shape, plus the exit code the nightly session
// adds) read back for `batch-sync report --html`: checked field by field, so a file that is not a run
// report is one clear line, never a page built on guesses.
import { z } from 'zod';
import type { ReportJson } from './run-data.js';

const counts = z.object({
  read: z.number(),
  accepted: z.number(),
  rejected: z.number(),
  invalid: z.number(),
  skipped: z.number(),
  warnings: z.number().default(0),
});
const text = z.string().nullable().default(null);
const row = z.object({
  file: z.string(),
  line: z.number(),
  resource: z.string(),
  externalId: text,
  outcome: z.string(),
  field: text,
  column: text,
  message: z.string(),
  detail: z.string(),
  batchId: text,
});
const archived = z.object({
  runId: z.string(),
  mode: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  aborted: z.object({ code: z.string(), message: z.string() }).nullable().default(null),
  counts: z.record(z.string(), counts),
  totals: counts,
  groups: z.array(z.object({ resource: z.string(), outcome: z.string(), reason: z.string(), count: z.number(), examples: z.array(row).default([]) })),
  notAccepted: z.array(row).default([]),
  notListed: z.number().default(0),
  errorFiles: z.array(z.string()).default([]),
  traffic: z
    .object({
      requests: z.number(),
      throttled: z.number(),
      retries: z.number(),
      waitMs: z.number(),
      peakConcurrency: z.number(),
      latencyP95Ms: z.number().nullable(),
    })
    .nullable()
    .default(null),
  exitCode: z.number().optional(),
});

/** The report and its exit code, or the first thing that makes it not a run report. */
export function archivedReport(value: unknown): { report: ReportJson; exitCode: number | null } | { problem: string } {
  const parsed = archived.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: `not a run report (${issue.path.join('.') || 'the document'}: ${issue.message})` };
  }
  const { exitCode, ...report } = parsed.data;
  return { report: report as unknown as ReportJson, exitCode: exitCode ?? null };
}
