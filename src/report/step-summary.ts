// The Markdown summary `--format github` appends to $GITHUB_STEP_SUMMARY: counts per resource and the
// biggest reason groups with a few rows each (file:line and externalId), so the job's page says what
// failed without opening the log. Every text from outside is escaped: it is rendered as Markdown/HTML.
import { shorten } from '../shorten.js';
import { isDeliberateSkip } from '../plan/outcome.js';
import { plural } from './plural.js';
import { annotationPath, type ReportContext } from './render-github.js';
import { commandName, durationSeconds, failedRows, isSendingMode, type RunReport } from './run-report.js';

const TOP_GROUPS = 10;
const MAX_CELL = 200;

/**
 * Inert in a Markdown table cell: no HTML, no pipes, no code spans, one line, and no link. GFM makes
 * a link of bare `https://…`, `www.…`, `a@b.c`, `mailto:`/`xmpp:` addresses (its autolink literals);
 * each needs a raw `:`, `@` or `www.` in the source, so those are written as character references,
 * which render as the same characters but never start a link.
 */
function markdownCell(text: string): string {
  return shorten(text, MAX_CELL)
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~!])/g, '\\$1')
    .replace(/:/g, '&#58;')
    .replace(/@/g, '&#64;')
    .replace(/(w)(ww\.)/gi, (_, w: string, rest: string) => `&#${w.charCodeAt(0)};${rest}`);
}

export function stepSummary(report: RunReport, context: ReportContext, exitCode: number): string {
  const t = report.totals;
  const verb = isSendingMode(report.mode) ? 'accepted' : 'valid';
  const failed = failedRows(report);
  const status = report.aborted ? `ABORTED (${markdownCell(report.aborted.code)})` : failed > 0 ? `${plural(failed, 'row')} not ${verb}` : 'OK';
  const lines = [
    `### batch-sync ${commandName(report.mode)}: ${status}`,
    '',
    `Run \`${report.runId}\`, exit code ${exitCode}, ${durationSeconds(report)}.`,
    '',
    `| resource | read | ${verb} | rejected | invalid | skipped | warnings |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (name: string, c: typeof t) => `| ${name} | ${c.read} | ${c.accepted} | ${c.rejected} | ${c.invalid} | ${c.skipped} | ${c.warnings} |`;
  for (const [resource, c] of Object.entries(report.counts)) lines.push(row(resource, c));
  if (Object.keys(report.counts).length !== 1) lines.push(row('**total**', t));
  if (report.aborted) lines.push('', `**Aborted:** ${markdownCell(report.aborted.message)}`);
  if (report.preview) {
    lines.push('', 'Against the state (nothing was recorded):', '', '| resource | new | changed | unchanged |', '|---|---:|---:|---:|');
    for (const [resource, p] of Object.entries(report.preview)) lines.push(`| ${resource} | ${p.new} | ${p.changed} | ${p.unchanged} |`);
  }
  const failing = report.groups.filter((g) => g.examples.some((o) => !isDeliberateSkip(o)));
  const groups = failing.slice(0, TOP_GROUPS);
  if (groups.length > 0) {
    lines.push('', '| rows | resource | reason | examples (file:line externalId) |', '|---:|---|---|---|');
    for (const g of groups) {
      const examples = g.examples.map((o) => markdownCell(`${annotationPath(o.file, context, true)}:${o.line}${o.externalId ? ` ${o.externalId}` : ''}`));
      lines.push(`| ${g.count} | ${g.resource} | ${markdownCell(g.label)} | ${examples.join('<br>')} |`);
    }
    const more = failing.length - groups.length;
    if (more > 0) lines.push('', `${plural(more, 'more reason group is', 'more reason groups are')} in the full report.`);
  }
  if (context.fullReport?.length) lines.push('', `Full report: ${context.fullReport.map((f) => markdownCell(annotationPath(f, context))).join(', ')}`);
  return `${lines.join('\n')}\n\n`;
}
