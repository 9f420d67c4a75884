// `--html FILE`: the run's page. The markup is made here with every value escaped; the rows of the
// reasons travel in the page's inert data block and are drawn by run-script.ts only as they scroll
// into view. Charts are inline SVG (svg-chart.ts): no script, font or request beyond the page.
import { escapeHtml, htmlPage } from '../../util/html-page.js';
import { commandName, type RunMode } from '../run-report.js';
import { plural } from '../plural.js';
import type { TimelineSample } from '../timeline.js';
import { BAR_OUTCOMES, exitMeaning, MAX_ROWS, outcomeBars, pageData, type ReportJson, type RunPageInput } from './run-data.js';
import { RUN_SCRIPT } from './run-script.js';
import { PAGE_STYLE } from './page-style.js';
import { chart, CHART_STYLE, type ChartSpec } from './svg-chart.js';

const n = (v: number) => v.toLocaleString('en-US');
const e = escapeHtml;

function header(input: RunPageInput): string {
  const r = input.report;
  const seconds = Math.max(0, Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000;
  const aborted = r.aborted ? `<p class="aborted">Aborted (${e(r.aborted.code)}): ${e(r.aborted.message)}</p>` : '';
  const code = input.exitCode;
  return `<header><h1>batch-sync ${e(commandName(r.mode as RunMode))}: run ${e(r.runId)}</h1>
<p>Started ${e(r.startedAt)}, took ${seconds.toFixed(1)} s; ${n(r.totals.read)} rows read.</p>
<p class="exit" id="exit-code"><strong>Exit code ${code === null ? 'unknown' : code}</strong>: ${e(exitMeaning(code, r.mode))}</p>${aborted}</header>`;
}

function bars(report: ReportJson): string {
  const list = outcomeBars(report);
  if (list.length === 0) return '<section aria-labelledby="outcomes-h"><h2 id="outcomes-h">Outcomes</h2><p>No rows.</p></section>';
  const rows = list.map(({ resource, counts }) => {
    const total = BAR_OUTCOMES.reduce((s, k) => s + counts[k], 0) || 1;
    let x = 0;
    const rects = BAR_OUTCOMES.map((k, i) => {
      const w = (counts[k] / total) * 100;
      const rect =
        w > 0 ? `<rect class="o${i}" x="${x.toFixed(3)}%" y="0" width="${w.toFixed(3)}%" height="18"><title>${e(`${k}: ${n(counts[k])}`)}</title></rect>` : '';
      x += w;
      return rect;
    }).join('');
    const text = BAR_OUTCOMES.map((k) => `${k} ${n(counts[k])}`).join(', ');
    const cells = BAR_OUTCOMES.map((k) => `<td>${n(counts[k])}</td>`).join('');
    return `<tr><th scope="row">${e(resource)}</th><td class="bar"><svg role="img" aria-label="${e(`${resource}: ${text}`)}" width="100%" height="18">${rects}</svg></td>${cells}</tr>`;
  });
  const heads = BAR_OUTCOMES.map((k, i) => `<th scope="col"><span class="swatch o${i}" aria-hidden="true"></span>${e(k)}</th>`).join('');
  return `<section aria-labelledby="outcomes-h"><h2 id="outcomes-h">Outcomes per resource</h2>
<table class="outcomes" id="outcomes"><thead><tr><th scope="col">resource</th><th scope="col">rows</th>${heads}</tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function reasons(input: RunPageInput, data: ReturnType<typeof pageData>): string {
  const r = input.report;
  const errorsCsv = input.links.find((l) => l.label.startsWith('errors CSV'));
  const where = errorsCsv
    ? `: the errors CSV (<a href="${e(errorsCsv.href)}">${e(errorsCsv.href)}</a>) has every row`
    : ': write them all with --errors FILE.csv';
  const leftOut =
    data.rowsLeftOut > 0
      ? `<p class="note" id="left-out">${n(data.rowsLeftOut)} ${data.rowsLeftOut === 1 ? 'row not accepted is' : 'rows not accepted are'} counted in the reasons but not listed here (this page lists at most ${n(MAX_ROWS)}, the report keeps ${n(r.notAccepted.length)})${where}.</p>`
      : '';
  if (data.reasons.length === 0) return '<section aria-labelledby="reasons-h"><h2 id="reasons-h">Reasons</h2><p>Every row was accepted.</p></section>';
  const option = (v: string) => `<option value="${e(v)}">${e(v)}</option>`;
  const select = (id: string, label: string, values: readonly string[]) =>
    `<label for="${id}">${label}</label><select id="${id}"><option value="">all</option>${values.map(option).join('')}</select>`;
  const resources = [...new Set(data.reasons.map((x) => x.resource))];
  const outcomes = [...new Set(data.reasons.map((x) => x.outcome))];
  return `<section aria-labelledby="reasons-h"><h2 id="reasons-h">Reasons, by rows</h2>${leftOut}
<div class="filters"><label for="search">Search rows</label><input id="search" type="search" placeholder="id, file, message…">
${select('f-resource', 'Resource', resources)}${select('f-outcome', 'Outcome', outcomes)}${select('f-file', 'File', data.files)}</div>
<p id="match-count" role="status"></p>
<ol class="reasons" id="reasons"></ol>
<noscript><p>The reasons' rows need JavaScript; the errors CSV holds them.</p></noscript></section>`;
}

/** Per-interval rates from cumulative samples: x at each sample after the first. */
function rates(samples: readonly TimelineSample[], pick: (s: TimelineSample) => number, scale = 1): number[] {
  return samples.slice(1).map((s, i) => {
    const dt = s.t - samples[i]!.t;
    return dt > 0 ? Math.round(((pick(s) - pick(samples[i]!)) / dt / scale) * 10) / 10 : 0;
  });
}

/** What stood at each sample after the first (in flight, the limit, the latency): x as the rates' x. */
function standing(samples: readonly TimelineSample[], pick: (s: TimelineSample) => number | null): (number | null)[] {
  return samples.slice(1).map(pick);
}

function timeline(input: RunPageInput): string {
  const t = input.report.traffic;
  const traffic = t
    ? `<p id="traffic">${n(t.requests)} requests: ${n(t.throttled)} answered 429, ${plural(t.retries, 'retry', 'retries')}, ${(t.waitMs / 1000).toFixed(1)} s waited for rate limits and retries, up to ${t.peakConcurrency} in flight${t.latencyP95Ms === null ? '' : `, p95 latency ${t.latencyP95Ms} ms`}.</p>`
    : '';
  const samples = input.timeline ?? [];
  if (samples.length < 2)
    return `<section aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>${traffic}<p>No timeline: it is recorded only by the run that writes the page (push or validate --html).</p></section>`;
  const x = samples.slice(1).map((s) => s.t);
  const draw = (id: string, title: string, yLabel: string, series: ChartSpec['series']) =>
    chart({ x, xLabel: 'seconds since the start', xTick: (v: number) => `${Math.round(v)} s`, id, title, yLabel, series });
  const charts = [
    draw('chart-rows', 'Rows read and items accepted per second', 'rows per second', [
      { name: 'rows read per second', values: rates(samples, (s) => s.rowsRead) },
      { name: 'items accepted per second', values: rates(samples, (s) => s.itemsAcked) },
    ]),
  ];
  if (input.report.mode === 'push')
    charts.push(
      draw('chart-flight', 'Requests in flight, the limit, and the paced rate', 'requests', [
        { name: 'in flight', values: standing(samples, (s) => s.inFlight) },
        { name: 'limit (slow start, then learnt)', values: standing(samples, (s) => s.concurrency) },
        { name: 'paced rate (requests per second)', values: standing(samples, (s) => s.rate) },
      ]),
      draw('chart-waits', '429 answers, retries and waits per second', 'per second', [
        { name: '429 answers per second', values: rates(samples, (s) => s.throttled), bars: true },
        { name: 'retries per second', values: rates(samples, (s) => s.retries) },
        { name: 'seconds waited per second (summed over requests)', values: rates(samples, (s) => s.waitMs, 1000) },
      ]),
      draw('chart-latency', `Latency of successful answers${samples.at(-1)!.latencyPerSample ? ', each second’s own' : ' so far'}`, 'milliseconds', [
        { name: 'p50', values: standing(samples, (s) => s.p50) },
        { name: 'p95', values: standing(samples, (s) => s.p95) },
      ]),
    );
  return `<section aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>${traffic}${charts.join('\n')}</section>`;
}

function settingsAndLinks(input: RunPageInput): string {
  const settings = input.settings
    ? `<dl class="settings">${input.settings.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`
    : '<p>Not recorded in an archived report.</p>';
  const links = input.links.length
    ? `<ul id="links">${input.links.map((l) => `<li><a href="${e(l.href)}">${e(l.label)}</a></li>`).join('')}</ul>`
    : '<p>No errors CSV or JUnit file was written by this run.</p>';
  return `<section aria-labelledby="settings-h"><h2 id="settings-h">Settings</h2>${settings}</section>
<section aria-labelledby="files-h"><h2 id="files-h">Files of this run</h2>${links}</section>`;
}

export function runPage(input: RunPageInput): string {
  const data = pageData(input.report);
  const r = input.report;
  return htmlPage({
    title: `batch-sync ${commandName(r.mode as RunMode)} ${r.runId}`,
    style: PAGE_STYLE + CHART_STYLE,
    script: RUN_SCRIPT,
    body: `<main>${header(input)}${bars(r)}${reasons(input, data)}${timeline(input)}${settingsAndLinks(input)}</main>`,
    data,
  });
}
