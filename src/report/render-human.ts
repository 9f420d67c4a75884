// The report people read: a table of counts, then the rows not accepted grouped by reason with a few
// examples each (10,000 failures with one cause are one paragraph, not 10,000 lines), warnings apart,
// and a one-line verdict. It prints only; the exit code is decided elsewhere.
import type { ChalkInstance } from 'chalk';
import { shorten } from '../shorten.js';
import { formatDiagnostic } from '../util/diagnostic.js';
import type { OutcomeGroup, ResourceCounts, WarningGroup } from './collector.js';
import type { RowOutcome } from '../plan/outcome.js';
import type { Output } from './output.js';
import { visibleStrings } from './terminal-text.js';
import { trafficLine } from './traffic.js';
import {
  commandName,
  durationSeconds,
  failedRows,
  isSendingMode,
  notReadLine,
  ownersNotInRunLine,
  previewLines,
  type PlannedBatchInfo,
  type RunReport,
} from './run-report.js';
import { plural } from './plural.js';
import { identicalLine, isIdenticalGroup, withoutOwnPrefix } from './group-key.js';

/** A server detail can be a whole stack trace; examples are for recognising the problem. */
const MAX_DETAIL = 300;

const clip = (s: string) => shorten(s, MAX_DETAIL);

export function renderHuman(report: RunReport, output: Output): void {
  for (const line of humanReport(report, output.color, output.stdoutColumns ?? 80)) output.out(line);
}

/** `columns`: the width lines fitted to one take (the traffic line). */
function humanReport(raw: RunReport, c: ChalkInstance, columns: number): string[] {
  // every value from outside (cells, file names, server texts) as one inert line, before colouring;
  // only the parts printed here (the 100,000 rows kept for the JSON report are not copied)
  const { aborted, groups, warningGroups, errorFiles } = raw;
  const report: RunReport = { ...raw, ...visibleStrings({ aborted, groups, warningGroups, errorFiles }) };
  const lines: string[] = [`batch-sync ${commandName(report.mode)}: run ${report.runId}, ${durationSeconds(report)}`, ''];
  if (report.aborted) {
    lines.push(c.red.bold(`RUN ABORTED (${report.aborted.code}): ${report.aborted.message}`), '');
  }
  if (raw.notRead?.length) lines.push(...visibleStrings(raw.notRead).map(notReadLine), '');
  lines.push(...countsTable(report), '');

  const titles: Record<OutcomeGroup['outcome'], string> = {
    rejected: 'rejected by the server',
    invalid: 'invalid',
    skipped: 'skipped',
  };
  let section = '';
  for (const g of report.groups) {
    const here = `${g.resource}\u0000${g.outcome}`;
    if (here !== section) {
      section = here;
      const n = report.counts[g.resource]?.[g.outcome] ?? 0;
      const colour = g.outcome === 'skipped' ? c.yellow : c.red;
      lines.push(colour.bold(`${g.resource}: ${plural(n, 'row')} ${titles[g.outcome]}`));
    }
    if (isIdenticalGroup(g)) {
      // sent once, with the row each repeats: nothing to look at row by row
      lines.push(identicalLine(g.count, g.examples[0]!), '');
      continue;
    }
    lines.push(`${plural(g.count, 'row')}: ${g.label}`);
    for (const e of g.examples) lines.push(`  ${exampleLine(e)}`);
    if (g.count > g.examples.length) lines.push(c.dim(`  … and ${g.count - g.examples.length} more`));
    lines.push('');
  }
  if (report.groups.some((g) => g.examples[0]?.message === 'HELD_BACK')) {
    lines.push(
      'Held back: deals and activities whose owner (or agent) has no accepted sales profile in this run',
      '(--no-hold-dependents sends them anyway).',
      '',
    );
  }
  if (report.notListed > 0) {
    const are = report.notListed === 1 ? 'is' : 'are';
    lines.push(
      `${plural(report.notListed, 'row')} not accepted ${are} counted and grouped above but not listed one by one (the errors CSV has every row).`,
      '',
    );
  }
  if (report.warningGroups.length > 0) lines.push(...warningSection(report.warningGroups, report.totals.warnings, c), '');
  if (report.batches) lines.push(...batchSection(report.batches, c), '');
  if (report.preview) lines.push(c.bold('Against the state (nothing was recorded):'), ...previewLines(report.preview).map((l) => `  ${l}`), '');
  const owners = ownersNotInRunLine(report);
  if (owners) lines.push(owners, '');
  if (report.errorFiles?.length) {
    lines.push(`Rows not accepted, with their original columns: ${report.errorFiles.join(', ')}`, '');
  }
  if (report.isolation) lines.push(isolationLine(report.isolation), '');
  if (report.traffic) lines.push(trafficLine(report.traffic, columns), '');
  lines.push(verdict(report, c));
  return lines;
}

/** One example row: invalid rows as diagnostics (`file:line  column → field: reason`), others with id and message. */
export function exampleLine(o: RowOutcome): string {
  if (o.outcome === 'invalid') {
    const reason = o.field && o.detail.startsWith(`${o.field}: `) ? o.detail.slice(o.field.length + 2) : o.detail;
    const line = formatDiagnostic({ severity: 'error', file: o.file, line: o.line, column: o.column, field: o.field, reason: clip(reason) });
    // `deals.csv:43  DEAL-0042  amount.currency: …`: the id is what the user looks up in the source system
    if (!o.externalId) return line;
    const where = `${o.file}:${o.line}`;
    return `${where}  ${o.externalId}${line.slice(where.length)}`;
  }
  // the group's label says the message; the server's per-item prefix only repeats the id
  const id = o.externalId ? `  ${o.externalId}` : '';
  return `${o.file}:${o.line}${id}  ${clip(withoutOwnPrefix(o.detail, o.externalId))}`;
}

/** Batches listed one by one up to this many; `--emit FILE` has every envelope. */
const MAX_BATCHES_LISTED = 20;

/** `push --dry-run`: what would have gone, batch by batch (ids, sizes; never the items). */
function batchSection(batches: readonly PlannedBatchInfo[], c: ChalkInstance): string[] {
  const lines = [c.bold(`${plural(batches.length, 'batch', 'batches')} would be sent (nothing was sent)${batches.length > 0 ? ':' : '.'}`)];
  for (const b of batches.slice(0, MAX_BATCHES_LISTED)) lines.push(`  ${b.batchId}  ${b.resource}  ${plural(b.items, 'item')}  ${plural(b.bytes, 'byte')}`);
  if (batches.length > MAX_BATCHES_LISTED) lines.push(c.dim(`  … and ${batches.length - MAX_BATCHES_LISTED} more (--emit FILE writes every envelope)`));
  return lines;
}

function isolationLine(i: NonNullable<RunReport['isolation']>): string {
  const over = i.overBudget > 0 ? `; the budget ran out: ${plural(i.overBudget, 'batch', 'batches')} left unverified` : '';
  return `Isolation (--isolate-unattributed): ${plural(i.requests, 'extra request')} of a budget of ${i.budget}, resending batches split to pin errors that named no row${over}.`;
}

function countsTable(report: RunReport): string[] {
  const header = ['resource', 'read', isSendingMode(report.mode) ? 'accepted' : 'valid', 'rejected', 'invalid', 'skipped', 'warnings'];
  const row = (name: string, k: ResourceCounts) => [name, k.read, k.accepted, k.rejected, k.invalid, k.skipped, k.warnings].map(String);
  const rows = [header, ...Object.entries(report.counts).map(([r, k]) => row(r, k))];
  if (Object.keys(report.counts).length !== 1) rows.push(row('total', report.totals));
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function warningSection(groups: WarningGroup[], total: number, c: ChalkInstance): string[] {
  const lines = [c.yellow.bold(`Warnings (${total})`)];
  for (const g of groups) {
    lines.push(`${plural(g.count, 'warning')}: ${g.resource ? `${g.resource}: ` : ''}${g.label}`);
    for (const d of g.examples) lines.push(`  ${formatDiagnostic({ ...d, reason: clip(d.reason) })}`);
    if (g.count > g.examples.length) lines.push(c.dim(`  … and ${g.count - g.examples.length} more`));
  }
  return lines;
}

function verdict(report: RunReport, c: ChalkInstance): string {
  const t = report.totals;
  const sending = isSendingMode(report.mode);
  const skipped = t.skipped > 0 ? `, ${t.skipped} skipped` : '';
  if (report.aborted) {
    const done = sending ? `${t.accepted} of ${plural(t.read, 'row')} accepted before it stopped` : `${plural(t.read, 'row')} checked`;
    return c.red.bold(`ABORTED: ${report.aborted.message} (${done}).`);
  }
  const failed = failedRows(report);
  if (failed > 0) {
    const why = sending ? ` (${t.rejected} rejected, ${t.invalid} invalid${skipped})` : skipped ? ` (${skipped.slice(2)})` : '';
    return c.red.bold(`FAILED: ${failed} of ${plural(t.read, 'row')} ${sending ? 'not accepted' : 'invalid'}${why}.`);
  }
  if (t.read === 0) return c.yellow.bold('OK: no rows to process.');
  const all = t.accepted === 1 ? '' : 'all ';
  return c.green.bold(`OK: ${all}${plural(t.accepted, 'row')} ${sending ? 'accepted' : 'valid'}${skipped}.`);
}
