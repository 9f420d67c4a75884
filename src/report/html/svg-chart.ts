// Charts as inline SVG, drawn here from numbers: the page needs no script to show them, and no value
// from an export reaches them but as escaped text. Each chart has a title, labelled axes, and a
// legend in words (the lines also differ by dash, not colour only).
import { escapeHtml } from '../../util/html-page.js';

interface Series {
  name: string;
  values: ReadonlyArray<number | null>;
  /** Bars instead of a line. */
  bars?: boolean;
}

export interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  /** The x value of each point (seconds, or a run's number). */
  x: readonly number[];
  /** The x axis's tick text for a value (a run's number, a second). */
  xTick?: (x: number) => string;
  /** Where the x axis starts and ends, and its ticks (default: from 0 to the last x, six ticks). */
  xRange?: [number, number];
  xTicks?: readonly number[];
  series: Series[];
}

const W = 640;
const H = 200;
const PAD = { left: 56, right: 12, top: 12, bottom: 40 };
const CLASSES = ['s0', 's1', 's2', 's3'];

const fmt = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : Number.isInteger(n) ? String(n) : n.toFixed(1));

/** A round top for the y axis: 1, 2 or 5 times a power of ten. */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((m) => m >= v)!;
}

function axes(spec: ChartSpec, xMin: number, xMax: number, yMax: number, sx: (x: number) => number, sy: (y: number) => number): string {
  const parts: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const y = (yMax * i) / 5;
    parts.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${sy(y)}" y2="${sy(y)}"/>`);
    parts.push(`<text class="tick" x="${PAD.left - 6}" y="${sy(y) + 4}" text-anchor="end">${fmt(y)}</text>`);
  }
  const count = Math.min(6, Math.max(1, spec.x.length - 1));
  const ticks = spec.xTicks ?? Array.from({ length: count + 1 }, (_, i) => xMin + ((xMax - xMin) * i) / count);
  for (const x of ticks) {
    const text = spec.xTick ? spec.xTick(x) : fmt(x);
    parts.push(`<text class="tick" x="${sx(x)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${escapeHtml(text)}</text>`);
  }
  parts.push(`<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}"/>`);
  parts.push(`<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}"/>`);
  parts.push(`<text class="label" x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle">${escapeHtml(spec.xLabel)}</text>`);
  parts.push(
    `<text class="label" transform="translate(14 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(spec.yLabel)}</text>`,
  );
  return parts.join('');
}

/** One chart: a figure with its SVG and its legend. */
export function chart(spec: ChartSpec): string {
  const [xMin, xMax] = spec.xRange ?? [Math.min(...spec.x, 0), Math.max(...spec.x, Math.min(...spec.x, 0) + 1)];
  const all = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const yMax = niceMax(Math.max(0, ...all));
  const sx = (x: number) => Math.round((PAD.left + ((x - xMin) / (xMax - xMin)) * (W - PAD.left - PAD.right)) * 10) / 10;
  const sy = (y: number) => Math.round((H - PAD.bottom - (y / yMax) * (H - PAD.top - PAD.bottom)) * 10) / 10;
  const barWidth = Math.max(1, Math.min(40, ((W - PAD.left - PAD.right) / Math.max(1, spec.x.length)) * 0.8));
  const marks = spec.series.map((s, i) => {
    const cls = CLASSES[i % CLASSES.length];
    if (s.bars)
      return s.values
        .map((v, j) => (v ? `<rect class="${cls}" x="${sx(spec.x[j]!) - barWidth / 2}" y="${sy(v)}" width="${barWidth}" height="${sy(0) - sy(v)}"/>` : ''))
        .join('');
    const points = s.values.flatMap((v, j) => (v === null ? [] : [`${sx(spec.x[j]!)},${sy(v)}`]));
    return points.length === 0 ? '' : `<polyline class="${cls} line" points="${points.join(' ')}"/>`;
  });
  const legend = spec.series
    .map(
      (s, i) =>
        `<li><svg class="key" aria-hidden="true" width="24" height="10"><line class="${CLASSES[i % CLASSES.length]} line" x1="0" x2="24" y1="5" y2="5"/></svg>${escapeHtml(s.name)}</li>`,
    )
    .join('');
  const titleId = `${spec.id}-title`;
  return `<figure class="chart" id="${escapeHtml(spec.id)}"><figcaption id="${titleId}">${escapeHtml(spec.title)}</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${titleId}">${axes(spec, xMin, xMax, yMax, sx, sy)}${marks.join('')}</svg>
<ul class="legend">${legend}</ul></figure>`;
}

/** Shared by every page's charts and bars. */
export const CHART_STYLE = `
.chart{margin:0 0 1.5rem;max-width:44rem}.chart figcaption{font-weight:600;margin-bottom:.25rem}
.chart>svg{width:100%;height:auto;display:block}
.grid{stroke:#e3e3e3}.axis{stroke:#555}.tick,.label{font-size:11px;fill:#333}.label{font-weight:600}
.line{fill:none;stroke-width:2}
.s0{stroke:#1b6ac9;fill:#1b6ac9}.s1{stroke:#c2410c;fill:#c2410c;stroke-dasharray:6 3}
.s2{stroke:#15803d;fill:#15803d;stroke-dasharray:2 2}.s3{stroke:#7c3aed;fill:#7c3aed;stroke-dasharray:8 2 2 2}
rect.s0,rect.s1,rect.s2,rect.s3{stroke:none}polyline.line,line.line{fill:none}
.legend{list-style:none;padding:0;margin:.25rem 0;display:flex;gap:1rem;flex-wrap:wrap;font-size:.85rem}
.key{vertical-align:middle;margin-right:.3rem}
`;
