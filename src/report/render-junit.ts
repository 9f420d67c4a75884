// `--junit FILE`: the run as JUnit XML, which Jenkins and GitLab render as test results. One
// testsuite per input file; in it one passing testcase for the rows accepted (or valid) and one
// testcase per reason the other rows share, whose failure text lists those rows (file:line,
// externalId, field, detail). Names are stable from run to run (the reason, never a count), so CI
// tracks a reason's history. Sizes are bounded for million-row inputs: rows listed per testcase and
// testcases per file are capped, and the errors CSV has every row.
import { hostname } from 'node:os';
import { shorten } from '../shorten.js';
import { isDeliberateSkip, type RowOutcome } from '../plan/outcome.js';
import type { FileCounts } from './collector.js';
import { groupKey, groupLabel } from './group-key.js';
import { plural } from './plural.js';
import { isSendingMode, type RunReport } from './run-report.js';
import { visible } from './terminal-text.js';

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

/**
 * One row, one line: every value from outside made visible (a CR or LF in an id, a field or a
 * detail would start a line of its own, and could forge another row's), an empty one left out.
 */
function rowLine(o: RowOutcome): string {
  const parts = [`${visible(o.file)}:${o.line}`];
  if (o.externalId) parts.push(`externalId=${visible(o.externalId)}`);
  if (o.field) parts.push(`field=${visible(o.field)}`);
  return `${parts.join('  ')}  ${visible(o.message)}: ${visible(shorten(o.detail, 500))}`;
}

/** A file as a suite's or a case's name: visible, and never blank (the Ant schema's name is a non-empty token). */
const fileName = (file: string) => (visible(file).trim() ? visible(file) : JSON.stringify(file));

/** Test cases are reasons, not timed steps: each takes no time of its own (the Ant schema requires the attribute). */
const NO_TIME = '0';

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
  const message = `${plural(c.count, 'row')}: ${c.label}`;
  const head = `    <testcase${attrs({ name, classname: file, time: NO_TIME })}>`;
  if (c.deliberate) return `${head}<skipped${attrs({ message })}/></testcase>`;
  let text = '';
  let listed = 0;
  for (const o of c.rows) {
    const line = `${rowLine(o)}\n`;
    if (text.length + line.length > MAX_CASE_TEXT) break;
    text += line;
    listed++;
  }
  if (c.count > listed) text += `… and ${c.count - listed} more (the errors CSV, --errors, has every row)\n`;
  return `${head}\n      <failure${attrs({ type: c.outcome, message })}>${xmlText(text)}</failure>\n    </testcase>`;
}

/** What every suite carries (the Ant schema requires each): when, where, how long, and its place. */
function suiteHead(
  report: RunReport,
  host: string,
  a: { name: string; tests: number; failures: number; errors: number; skipped?: number; time: string; package: string; id: number },
): string {
  const { name, tests, failures, errors, skipped, time, id } = a;
  const timestamp = report.startedAt.toISOString().slice(0, 19);
  return `  <testsuite${attrs({ name, tests, failures, errors, skipped, time, timestamp, hostname: host, package: a.package, id })}>`;
}

function suiteXml(report: RunReport, f: FileCounts, rows: readonly RowOutcome[], host: string, id: number): string {
  const cases = casesOf(rows);
  const failing = cases.filter((c) => !c.deliberate).length;
  const skipped = cases.length - failing;
  const verb = isSendingMode(report.mode) ? 'accepted' : 'valid';
  const c = f.counts;
  const file = fileName(f.file);
  const warned = c.warnings > 0 ? `, ${plural(c.warnings, 'warning')}` : '';
  const summary = `${plural(c.read, 'row')} read: ${c.accepted} ${verb}, ${c.rejected} rejected, ${c.invalid} invalid, ${c.skipped} skipped${warned}`;
  const warnings = warningsText(report, f);
  const lines = [
    suiteHead(report, host, { name: file, tests: cases.length + 1, failures: failing, errors: 0, skipped, time: NO_TIME, package: f.resource, id }),
    `    <properties>${properties(report, f)}</properties>`,
    `    <testcase${attrs({ name: `rows ${verb}`, classname: file, time: NO_TIME })}/>`,
    ...cases.map((k) => caseXml(file, k)),
    `    <system-out>${xmlText(summary)}</system-out>`,
    warnings ? `    <system-err>${xmlText(warnings)}</system-err>` : '    <system-err/>',
    '  </testsuite>',
  ];
  return lines.join('\n');
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

/** A suite of its own for what belongs to no file: the run aborted, rows beyond the report's cap. It carries the run's duration. */
function runSuite(report: RunReport, host: string, id: number): string | undefined {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  const head = (name: string) => `    <testcase${attrs({ name, classname: 'batch-sync', time: NO_TIME })}>`;
  if (report.aborted) {
    errors++;
    cases.push(`${head('run')}<error${attrs({ type: report.aborted.code, message: report.aborted.message })}/></testcase>`);
  }
  if (report.notListed > 0) {
    failures++;
    const message = `${plural(report.notListed, 'row not accepted is', 'rows not accepted are')} counted but not listed in this report (over its limit); the errors CSV (--errors) has every row`;
    cases.push(`${head('rows not listed')}<failure${attrs({ type: 'not-listed', message })}/></testcase>`);
  }
  if (cases.length === 0) return undefined;
  const time = (Math.max(0, report.endedAt.getTime() - report.startedAt.getTime()) / 1000).toFixed(3);
  const suite = suiteHead(report, host, { name: 'batch-sync run', tests: cases.length, failures, errors, time, package: 'batch-sync', id });
  return [suite, '    <properties/>', ...cases, '    <system-out/>', '    <system-err/>', '  </testsuite>'].join('\n');
}

/**
 * The whole report. The root `<testsuites>` has no attributes: Apache Ant's schema, the strictest
 * reader, allows none (Jenkins, GitLab and junitparser add the suites' counts up themselves).
 */
export function junitXml(report: RunReport, host = hostname()): string {
  const byFile = new Map<string, RowOutcome[]>();
  for (const o of report.notAccepted) {
    const key = `${o.resource}\u0000${o.file}`;
    const list = byFile.get(key);
    if (list) list.push(o);
    else byFile.set(key, [o]);
  }
  const suites = report.files.map((f, i) => suiteXml(report, f, byFile.get(`${f.resource}\u0000${f.file}`) ?? [], host || 'localhost', i));
  const run = runSuite(report, host || 'localhost', suites.length);
  const all = run ? [...suites, run] : suites;
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...all, '</testsuites>', ''].join('\n');
}
