// `history --html FILE`: the archived runs as charts (rows by outcome per run, duration, the share of
// requests answered 429, the top reasons over time) and a table whose every run links to its page or
// its report.json. Drawn as inline SVG, no script: nothing from a report is ever more than text.
import { z } from 'zod';
import { escapeHtml, htmlPage } from '../../util/html-page.js';
import type { HistoryRun } from '../history.js';
import { plural } from '../plural.js';
import { PAGE_STYLE } from './page-style.js';
import { chart, CHART_STYLE } from './svg-chart.js';

const extra = z.object({
  traffic: z.object({ requests: z.number(), throttled: z.number() }).nullable().optional(),
  groups: z.array(z.object({ resource: z.string().optional(), outcome: z.string(), reason: z.string(), count: z.number() })).default([]),
});

export interface HistoryPageRun {
  run: HistoryRun;
  /** The report's top-level fields as read (traffic and groups are used). */
  fields: Record<string, unknown>;
  /** A relative link to the run's page, or its report.json. */
  href: string;
}

/** The fields the page reads beyond the table's. */
export const HISTORY_PAGE_FIELDS = ['traffic'] as const;

const TOP_REASONS = 4;
const e = escapeHtml;

function reasonsOf(runs: readonly HistoryPageRun[]) {
  const parsed = runs.map((r) => extra.safeParse(r.fields).data ?? { traffic: null, groups: [] });
  const totals = new Map<string, number>();
  for (const p of parsed) for (const g of p.groups) totals.set(g.reason, (totals.get(g.reason) ?? 0) + g.count);
  const top = [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_REASONS)
    .map(([reason]) => reason);
  return { parsed, top };
}

function table(runs: readonly HistoryPageRun[]): string {
  const rows = runs.map(({ run: r, href }, i) => {
    const cells = [
      r.mode,
      `${r.durationSeconds.toFixed(1)} s`,
      ...[r.read, r.accepted, r.rejected, r.invalid, r.skipped].map((n) => n.toLocaleString('en-US')),
    ];
    const exit = r.exitCode === null ? '?' : String(r.exitCode);
    return `<tr><td>#${i + 1}</td><th scope="row"><a href="${e(href)}">${e(r.startedAt.replace('T', ' ').slice(0, 19))}</a></th>${cells.map((c) => `<td>${e(c)}</td>`).join('')}<td>${e(exit)}${r.aborted ? ` (aborted: ${e(r.aborted)})` : ''}</td></tr>`;
  });
  const head = ['run', 'started (UTC)', 'mode', 'duration', 'read', 'accepted', 'rejected', 'invalid', 'skipped', 'exit'];
  return `<table id="runs"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function historyPage(runs: readonly HistoryPageRun[], where: string, unreadable: number): string {
  const { parsed, top } = reasonsOf(runs);
  const x = runs.map((_, i) => i + 1);
  const every = Math.max(1, Math.ceil(runs.length / 12));
  const common = {
    x,
    xLabel: 'run (oldest first)',
    xTick: (v: number) => `#${v}`,
    xRange: [0.5, runs.length + 0.5] as [number, number],
    xTicks: x.filter((v) => (v - 1) % every === 0),
  };
  const pick = (f: (r: HistoryRun) => number) => runs.map((r) => f(r.run));
  const charts =
    runs.length === 0
      ? '<p>No archived runs.</p>'
      : [
          chart({
            ...common,
            id: 'chart-outcomes',
            title: 'Rows by outcome per run',
            yLabel: 'rows',
            series: [
              { name: 'accepted', values: pick((r) => r.accepted) },
              { name: 'rejected', values: pick((r) => r.rejected) },
              { name: 'invalid', values: pick((r) => r.invalid) },
              { name: 'skipped', values: pick((r) => r.skipped) },
            ],
          }),
          chart({
            ...common,
            id: 'chart-duration',
            title: 'Duration per run',
            yLabel: 'seconds',
            series: [{ name: 'duration', values: pick((r) => r.durationSeconds), bars: true }],
          }),
          chart({
            ...common,
            id: 'chart-429',
            title: 'Share of requests answered 429',
            yLabel: 'percent',
            series: [
              {
                name: '429 share (%)',
                values: parsed.map((p) => (p.traffic && p.traffic.requests > 0 ? Math.round((p.traffic.throttled / p.traffic.requests) * 1000) / 10 : null)),
              },
            ],
          }),
          top.length === 0
            ? '<p>No reasons: every row of every run was accepted.</p>'
            : chart({
                ...common,
                id: 'chart-reasons',
                title: `Top ${plural(top.length, 'reason')} over time`,
                yLabel: 'rows',
                series: top.map((reason) => ({
                  name: reason.length > 90 ? `${reason.slice(0, 90)}…` : reason,
                  values: parsed.map((p) => p.groups.filter((g) => g.reason === reason).reduce((n, g) => n + g.count, 0)),
                })),
              }),
        ].join('\n');
  const note =
    unreadable > 0 ? `<p class="note">${plural(unreadable, 'report file is', 'report files are')} not readable as a run report and left out.</p>` : '';
  return htmlPage({
    title: 'batch-sync history',
    style: PAGE_STYLE + CHART_STYLE,
    body: `<main><header><h1>batch-sync history</h1><p>${plural(runs.length, 'run')} in ${e(where)}, oldest first.</p>${note}</header>
<section aria-labelledby="charts-h"><h2 id="charts-h">Trends</h2>${charts}</section>
<section aria-labelledby="runs-h"><h2 id="runs-h">Runs</h2>${table(runs)}</section></main>`,
  });
}
