// `--format github`: GitHub Actions workflow commands, so a failing CI step shows each problem on the
// line of the file it is about. GitHub shows at most 10 error annotations per step (and 50 per job),
// so only the first rows of each reason group become annotations, then one summary annotation says
// the totals and where the full report is. The Markdown step summary is step-summary.ts.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { shorten } from '../shorten.js';
import { isDeliberateSkip, type RowOutcome } from '../plan/outcome.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { sheetLabel, splitSheetLabel } from '../util/sheet-label.js';
import type { Output } from './output.js';
import { plural } from './plural.js';
import { commandName, failedRows, isSendingMode, previewLines, type RunReport } from './run-report.js';

/** Where the report's paths are relative to, and the files that hold more than the annotations can. */
export interface ReportContext {
  /** The working directory the run's paths are relative to. */
  cwd: string;
  /** $GITHUB_WORKSPACE: annotation paths are relative to it (the repository root), else to cwd. */
  workspace?: string;
  /** Files holding the whole report (errors CSV, JUnit XML, the run's report folder). */
  fullReport?: string[];
}

/** Annotations of each kind per step, one of them kept for the summary (GitHub shows 10 per step). */
const ANNOTATIONS_PER_STEP = 10;
const MAX_MESSAGE = 500;

/** Data of a workflow command: `%`, CR and LF escaped (as @actions/core's escapeData). */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property of a workflow command: also `:` and `,` (as @actions/core's escapeProperty). */
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

type Level = 'error' | 'warning' | 'notice';

/**
 * One command line. The runner trims whitespace off the ends of the properties (a file or title
 * ending in a space would lose it), so a trailing `,` closes them then: it splits into nothing.
 * It also drops a value's leading `=`s, which no escape can keep: see fileProperty.
 */
export function workflowCommand(level: Level, properties: Record<string, string | number | undefined>, message: string): string {
  const values = Object.entries(properties).filter(([, v]) => v !== undefined && v !== '');
  const props = values.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  const close = /[\s\u0085]$/u.test(String(values.at(-1)?.[1] ?? '')) ? ',' : '';
  return `::${level}${props ? ` ${props}${close}` : ''}::${escapeData(message)}`;
}

/**
 * A row's file as GitHub names it: relative to the workspace, with forward slashes; `withSheet`: a
 * workbook's sheet after it (`cartera.xlsx[Ventas 2026]`), where it is text and no link.
 */
export function annotationPath(file: string, context: ReportContext, withSheet = false): string {
  const { path, sheet } = splitSheetLabel(file);
  const absolute = resolve(context.cwd, path);
  const rel = relative(context.workspace ?? context.cwd, absolute);
  const shown = (rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : absolute).split(sep).join('/');
  return withSheet && sheet !== undefined ? sheetLabel(shown, sheet) : shown;
}

/** `[Ventas 2026] row 45: ` before an annotation's message: GitHub's line is no sheet's row. */
function sheetPosition(file: string, line: number | undefined): string {
  const { sheet } = splitSheetLabel(file);
  return sheet === undefined ? '' : `[${sheet}]${line === undefined ? '' : `:${line}`}  `;
}

/**
 * The `file=` of an annotation. The runner splits each `key=value` with empty entries removed, which
 * drops a value's leading `=`s (`=x.csv` would name `x.csv`, another file): such a path is given
 * absolute, which cannot start with `=`, and the runner makes it relative to the workspace again.
 */
function fileProperty(file: string, context: ReportContext): string {
  const path = annotationPath(file, context);
  return path.startsWith('=')
    ? resolve(context.workspace ?? context.cwd, path)
        .split(sep)
        .join('/')
    : path;
}

/** Round robin over the groups: the first row of every group before the second row of any. */
function firstOfEach<T>(lists: T[][], max: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < max && lists.some((l) => l.length > i); i++) {
    for (const list of lists) if (list[i] !== undefined && out.length < max) out.push(list[i]!);
  }
  return out;
}

function rowAnnotation(o: RowOutcome, context: ReportContext): string {
  const title = `batch-sync: ${o.resource} ${o.outcome}${o.field ? ` (${o.field})` : ''}`;
  const id = o.externalId ? `externalId ${o.externalId}: ` : '';
  const message = `${sheetPosition(o.file, o.line)}${id}${o.message} ${shorten(o.detail, MAX_MESSAGE)}`;
  return workflowCommand('error', { file: fileProperty(o.file, context), line: o.line, title }, message);
}

function warningAnnotation(d: Diagnostic, context: ReportContext): string {
  const title = `batch-sync: warning${d.field ? ` (${d.field})` : ''}`;
  return workflowCommand(
    'warning',
    { file: fileProperty(d.file, context), line: d.line, title },
    sheetPosition(d.file, d.line) + shorten(d.reason, MAX_MESSAGE),
  );
}

function summaryAnnotation(report: RunReport, shown: number, context: ReportContext): string {
  const t = report.totals;
  const failed = failedRows(report);
  const verb = isSendingMode(report.mode) ? 'accepted' : 'valid';
  const counts = `read ${t.read}, ${verb} ${t.accepted}, rejected ${t.rejected}, invalid ${t.invalid}, skipped ${t.skipped}, warnings ${t.warnings}`;
  const where = context.fullReport?.length
    ? `; full report: ${context.fullReport.map((f) => annotationPath(f, context)).join(', ')}`
    : '; the step summary and the other formats (--format human|json, --junit, --errors) have every row';
  const title = `batch-sync ${commandName(report.mode)}: ${report.aborted ? `ABORTED (${report.aborted.code})` : failed > 0 ? `${plural(failed, 'row')} not ${verb}` : 'OK'}`;
  const level: Level = report.aborted || failed > 0 ? 'error' : 'notice';
  const preview = report.preview ? `; against the state: ${previewLines(report.preview).join('; ')}` : '';
  const listed = `${failed > 0 ? `${counts}; ${shown} of ${failed} shown as annotations${where}` : counts}${preview}`;
  return workflowCommand(level, { title }, report.aborted ? `${report.aborted.message}. ${listed}` : listed);
}

function githubAnnotations(report: RunReport, context: ReportContext): string[] {
  const failing = report.groups.map((g) => g.examples.filter((o) => !isDeliberateSkip(o)));
  const rows = firstOfEach(failing, ANNOTATIONS_PER_STEP - 1);
  const warnings = firstOfEach(
    report.warningGroups.map((g) => g.examples),
    ANNOTATIONS_PER_STEP,
  );
  return [
    ...rows.map((o) => rowAnnotation(o, context)),
    ...warnings.map((d) => warningAnnotation(d, context)),
    summaryAnnotation(report, rows.length, context),
  ];
}

export function renderGithub(report: RunReport, output: Output, context?: ReportContext): void {
  for (const line of githubAnnotations(report, context ?? { cwd: process.cwd() })) output.out(line, 'workflow-command');
}
