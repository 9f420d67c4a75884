// `--junit FILE`: the run as JUnit XML, which Jenkins and GitLab render as test results. One
// testsuite per input file; in it one passing testcase for the rows accepted (or valid) and one
// testcase per reason the other rows share, whose failure text lists those rows (file:line,
// externalId, field, detail). Names are stable from run to run (the reason, never a count), so CI
// tracks a reason's history. Sizes are bounded for million-row inputs: rows listed per testcase and
// testcases per file are capped, and the errors CSV has every row.
import { shorten } from '../shorten.js';
import { isDeliberateSkip, type RowOutcome } from '../plan/outcome.js';
import type { FileCounts } from './collector.js';
import { groupKey, groupLabel } from './group-key.js';
import { commandName, isSendingMode, type RunReport } from './run-report.js';

/** Rows listed in one testcase's failure text, and its size; the rest are counted. */
const JUNIT_ROWS_PER_CASE = 200;
const MAX_CASE_TEXT = 32 * 1024;
/** Reasons per file; beyond them rows go to one "other reasons" testcase. */
const MAX_CASES_PER_FILE = 200;
const OTHER = '(other reasons)';

// what XML 1.0 forbids even as a character reference: C0 controls but tab, CR, LF; lone surrogates; U+FFFE/FFFF
const FORBIDDEN = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as XML character data or attribute value: forbidden characters removed, markup escaped. */
function xmlText(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const attrs = (a: Record<string, string | number | undefined>) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');

interface Case {
  label: string;
  outcome: RowOutcome['outcome'];
  deliberate: boolean;
  rows: RowOutcome[];
  count: number;
}

function rowLine(o: RowOutcome): string {
  const parts = [`${o.file}:${o.line}`];
  if (o.externalId !== undefined) parts.push(`externalId=${o.externalId}`);
  if (o.field !== undefined) parts.push(`field=${o.field}`);
  return `${parts.join('  ')}  ${o.message}: ${shorten(o.detail, 500)}`;
}

/** The listed rows of one file, by reason, in the order reasons first appear. */
function casesOf(rows: readonly RowOutcome[]): Case[] {
  const cases = new Map<string, Case>();
  for (const o of rows) {
    let key = groupKey(o);
    if (!cases.has(key) && cases.size >= MAX_CASES_PER_FILE) key = OTHER;
    let c = cases.get(key);
    if (!c) cases.set(key, (c = { label: key === OTHER ? OTHER : groupLabel(o), outcome: o.outcome, deliberate: isDeliberateSkip(o), rows: [], count: 0 }));
    c.count++;
    if (c.rows.length < JUNIT_ROWS_PER_CASE) c.rows.push(o);
  }
  return [...cases.values()];
}

function caseXml(file: string, c: Case): string {
  const name = `${c.outcome}: ${c.label}`;
  const message = `${c.count} ${c.count === 1 ? 'row' : 'rows'}: ${c.label}`;
  if (c.deliberate) return `    <testcase${attrs({ name, classname: file })}><skipped${attrs({ message })}/></testcase>`;
  let text = '';
  let listed = 0;
  for (const o of c.rows) {
    const line = `${rowLine(o)}\n`;
    if (text.length + line.length > MAX_CASE_TEXT) break;
    text += line;
    listed++;
  }
  if (c.count > listed) text += `… and ${c.count - listed} more (the errors CSV, --errors, has every row)\n`;
  return `    <testcase${attrs({ name, classname: file })}>\n      <failure${attrs({ type: c.outcome, message })}>${xmlText(text)}</failure>\n    </testcase>`;
}

function suiteXml(report: RunReport, f: FileCounts, rows: readonly RowOutcome[]): { xml: string; tests: number; failures: number } {
  const cases = casesOf(rows);
  const failing = cases.filter((c) => !c.deliberate).length;
  const skipped = cases.length - failing;
  const verb = isSendingMode(report.mode) ? 'accepted' : 'valid';
  const c = f.counts;
  const warned = c.warnings > 0 ? `, ${c.warnings} ${c.warnings === 1 ? 'warning' : 'warnings'}` : '';
  const summary = `${c.read} rows read: ${c.accepted} ${verb}, ${c.rejected} rejected, ${c.invalid} invalid, ${c.skipped} skipped${warned}`;
  const warnings = warningsText(report, f);
  const head = `  <testsuite${attrs({ name: f.file, tests: cases.length + 1, failures: failing, errors: 0, skipped, timestamp: report.startedAt.toISOString().slice(0, 19), file: f.file })}>`;
  const lines = [
    head,
    `    <properties>${properties(report, f)}</properties>`,
    `    <testcase${attrs({ name: `rows ${verb}`, classname: f.file })}><system-out>${xmlText(summary)}</system-out></testcase>`,
    ...cases.map((k) => caseXml(f.file, k)),
    ...(warnings ? [`    <system-err>${xmlText(warnings)}</system-err>`] : []),
    '  </testsuite>',
  ];
  return { xml: lines.join('\n'), tests: cases.length + 1, failures: failing };
}

/**
 * The file's warnings, by reason: each reason's count in the run and the examples the report kept
 * from this file (warnings are never failures, so they go to the suite's system-err, not a testcase).
 */
function warningsText(report: RunReport, f: FileCounts): string {
  let text = '';
  for (const g of report.warningGroups) {
    if (g.resource !== f.resource) continue;
    const here = g.examples.filter((d) => d.file === f.file);
    if (here.length === 0) continue;
    text += `${g.count} ${g.count === 1 ? 'warning' : 'warnings'}: ${g.label}\n`;
    for (const d of here) text += `  ${d.file}${d.line === undefined ? '' : `:${d.line}`}  ${shorten(d.field ? `${d.field}: ${d.reason}` : d.reason, 500)}\n`;
    if (g.count > g.examples.length) text += `  … and ${g.count - g.examples.length} more\n`;
  }
  return text;
}

/** The suite's resource and run; in a dry-run preview, the resource's (not the file's) new, changed and unchanged rows. */
function properties(report: RunReport, f: FileCounts): string {
  const p = report.preview?.[f.resource];
  const list: Array<[string, string | number]> = [
    ['resource', f.resource],
    ['runId', report.runId],
    ...(p
      ? ([
          ['preview.new', p.new],
          ['preview.changed', p.changed],
          ['preview.unchanged', p.unchanged],
        ] as Array<[string, number]>)
      : []),
  ];
  return list.map(([name, value]) => `<property${attrs({ name, value })}/>`).join('');
}

/** A suite of its own for what belongs to no file: the run aborted, rows beyond the report's cap. */
function runSuite(report: RunReport): { xml: string; tests: number; failures: number; errors: number } | undefined {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  if (report.aborted) {
    errors++;
    cases.push(
      `    <testcase${attrs({ name: 'run', classname: 'batch-sync' })}><error${attrs({ type: report.aborted.code, message: report.aborted.message })}/></testcase>`,
    );
  }
  if (report.notListed > 0) {
    failures++;
    const message = `${report.notListed} rows not accepted are counted but not listed in this report (over its limit); the errors CSV (--errors) has every row`;
    cases.push(`    <testcase${attrs({ name: 'rows not listed', classname: 'batch-sync' })}><failure${attrs({ type: 'not-listed', message })}/></testcase>`);
  }
  if (cases.length === 0) return undefined;
  const head = `  <testsuite${attrs({ name: 'batch-sync run', tests: cases.length, failures, errors })}>`;
  return { xml: [head, ...cases, '  </testsuite>'].join('\n'), tests: cases.length, failures, errors };
}

export function junitXml(report: RunReport): string {
  const byFile = new Map<string, RowOutcome[]>();
  for (const o of report.notAccepted) {
    const key = `${o.resource}\u0000${o.file}`;
    const list = byFile.get(key);
    if (list) list.push(o);
    else byFile.set(key, [o]);
  }
  const suites = report.files.map((f) => suiteXml(report, f, byFile.get(`${f.resource}\u0000${f.file}`) ?? []));
  const run = runSuite(report);
  const all = run ? [...suites, run] : suites;
  const time = (Math.max(0, report.endedAt.getTime() - report.startedAt.getTime()) / 1000).toFixed(3);
  const total = (k: 'tests' | 'failures') => all.reduce((n, s) => n + s[k], 0);
  const head = `<testsuites${attrs({ name: `batch-sync ${commandName(report.mode)}`, tests: total('tests'), failures: total('failures'), errors: run?.errors ?? 0, time })}>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...all.map((s) => s.xml), '</testsuites>', ''].join('\n');
}
