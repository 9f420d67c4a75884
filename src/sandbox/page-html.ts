// The sandbox's page: what it holds per resource (a search by externalId, a record's JSON), the
// batches it answered and each item it refused. Written by util/html-page.ts: the counts in the
// markup are escaped numbers, everything else arrives as JSON from the page's own origin and is shown
// with textContent, so no value from an export is ever markup, script or a link. It refreshes itself
// every 1.5 s while open.
import { RESOURCES } from '../contract/resources.js';
import { escapeHtml, htmlPage } from '../util/html-page.js';
import type { PageSummary } from './page-data.js';

const REFRESH_MS = 1500;

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff}
body{margin:0 auto;max-width:72rem;padding:1rem 1.5rem 3rem;line-height:1.45}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.75rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}
.note{color:#4a535c;font-size:.9rem;margin:.25rem 0}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e4e8eb;vertical-align:top}
th{background:#f4f6f8}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.counts{width:auto;min-width:20rem}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0}
label{display:flex;flex-direction:column;font-size:.85rem;gap:.15rem}
input,select,button{font:inherit;padding:.3rem .5rem;border:1px solid #8c959f;border-radius:4px;background:#fff;color:#1b1f24}
button{cursor:pointer;background:#f4f6f8}button:focus-visible,input:focus-visible,select:focus-visible,pre:focus-visible{outline:2px solid #0550ae;outline-offset:1px}
.cols{display:grid;grid-template-columns:minmax(14rem,1fr) 2fr;gap:1rem}
ul.plain{list-style:none;margin:0;padding:0}ul.plain li{margin:.15rem 0}
#search-results button{width:100%;text-align:left;overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:.5rem;max-height:28rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem;margin:.25rem 0}
.refusal{border:1px solid #d0d7de;border-left:4px solid #a40e26;border-radius:4px;padding:.5rem .75rem;margin:.5rem 0;overflow-wrap:anywhere}
.refusal p{margin:.2rem 0}.bad{color:#a40e26;font-weight:600}
.pager{display:flex;gap:.5rem;align-items:center;margin:.5rem 0;font-size:.9rem}
td{overflow-wrap:anywhere}
`;

const SCRIPT = `(() => {
'use strict';
const $ = (id) => document.getElementById(id);
const config = JSON.parse($('page-data').textContent);
const fmt = new Intl.NumberFormat('en-US');
const n = (v) => fmt.format(v);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
const view = { resource: $('search-resource').value, q: '', records: 0, batches: 0, refusals: 0, version: '' };
const getJson = async (path, params) => {
  const res = await fetch(path + '?' + new URLSearchParams(params), { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!res.ok) throw new Error(path + ' answered HTTP ' + res.status);
  return res.json();
};
const pager = (id, data, key, load) => {
  const box = $(id); box.replaceChildren();
  const last = Math.max(0, Math.ceil(data.count / data.pageSize) - 1);
  const prev = el('button', 'Newer / previous'); prev.type = 'button'; prev.disabled = data.page === 0;
  const next = el('button', 'Older / next'); next.type = 'button'; next.disabled = data.page >= last;
  prev.onclick = () => { view[key] = Math.max(0, data.page - 1); load(); };
  next.onclick = () => { view[key] = data.page + 1; load(); };
  if (last > 0) box.append(prev, el('span', 'page ' + n(data.page + 1) + ' of ' + n(last + 1)), next);
};
const showSummary = (s) => {
  for (const r of config.resources) $('count-' + r).textContent = n(s.records[r]);
  $('stat-batches').textContent = n(s.batches) + ' batches received: ' + n(s.itemsReceived) + ' items, ' + n(s.itemsAccepted) + ' accepted, ' + n(s.itemsRejected) + ' refused';
};
const loadRecords = async () => {
  const d = await getJson('data/records', { resource: view.resource, q: view.q, page: view.records });
  $('search-results').replaceChildren(...d.records.map((r) => {
    const b = el('button', r.label ? r.externalId + ' \\u2014 ' + r.label : r.externalId); b.type = 'button';
    b.onclick = () => showRecord(d.resource, r.externalId);
    const li = el('li'); li.append(b); return li;
  }));
  $('search-status').textContent = (d.prefix ? n(d.matched) + ' of ' + n(d.total) + ' ' + d.resource + ' records start with \\u201c' + d.prefix + '\\u201d' : n(d.total) + ' ' + d.resource + ' records') + (d.matched > d.pageSize ? ', ' + n(d.pageSize) + ' a page' : '');
  pager('records-pager', { ...d, count: d.matched }, 'records', loadRecords);
};
const showRecord = async (resource, id) => {
  const d = await getJson('data/record', { resource, id });
  $('record-title').textContent = resource + ' ' + id;
  $('record-json').textContent = d.json;
  $('record-note').textContent = d.truncated ? 'Cut at ' + n(d.json.length) + ' of ' + n(d.length) + ' characters.' : '';
};
const answerOf = (b) => b.status === 200 ? '200, data.code ' + b.code : b.status + (b.refusal ? ' ' + b.refusal.message + ': ' + b.refusal.detail : '');
const loadBatches = async () => {
  const d = await getJson('data/batches', { page: view.batches });
  $('batches-body').replaceChildren(...d.batches.map((b) => {
    const tr = el('tr');
    tr.append(el('td', '#' + b.seq, 'n'), el('td', b.method), el('td', b.resource), el('td', b.batchId), el('td', n(b.items), 'n'), el('td', n(b.accepted), 'n'), el('td', n(b.errors), 'n'), el('td', answerOf(b), b.status === 200 ? '' : 'bad'));
    return tr;
  }));
  $('batches-note').textContent = d.total > d.kept ? 'The last ' + n(d.kept) + ' of ' + n(d.total) + ' batches are kept.' : '';
  pager('batches-pager', { ...d, count: d.kept }, 'batches', loadBatches);
};
const loadRefusals = async () => {
  const d = await getJson('data/refusals', { page: view.refusals });
  const box = $('refusals');
  if (d.refusals.length === 0) box.replaceChildren(el('p', 'No item refused.', 'note'));
  else box.replaceChildren(...d.refusals.map((r) => {
    const card = el('article', undefined, 'refusal');
    card.append(el('p', 'Batch #' + r.seq + ' ' + r.method + ' ' + r.resource + ' batchId ' + r.batchId + ': items[' + r.index + ']' + (r.externalId === undefined ? '' : ' externalId ' + r.externalId)));
    const list = el('ul', undefined, 'plain');
    for (const p of r.problems) list.append(el('li', p.message + ': ' + p.detail, 'bad'));
    const details = el('details'); details.open = true;
    const pre = el('pre', r.item); pre.tabIndex = 0;
    details.append(el('summary', r.itemTruncated ? 'The item as received (cut short)' : 'The item as received'), pre);
    card.append(list, details);
    return card;
  }));
  $('refusals-note').textContent = d.total > d.kept ? 'The last ' + n(d.kept) + ' of ' + n(d.total) + ' refused items are kept.' : '';
  pager('refusals-pager', { ...d, count: d.kept }, 'refusals', loadRefusals);
};
let busy = false;
const refresh = async () => {
  if (busy) return;
  busy = true;
  try {
    const s = await getJson('data/summary', {});
    showSummary(s);
    if (s.version !== view.version) {
      view.version = s.version;
      await Promise.all([loadRecords(), loadBatches(), loadRefusals()]);
    }
    $('updated').textContent = 'Updated ' + new Date().toLocaleTimeString() + '; refreshed every ' + config.refreshMs / 1000 + ' s.';
  } catch (error) {
    $('updated').textContent = 'Cannot reach the sandbox (' + error.message + '); trying again.';
  } finally { busy = false; }
};
$('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  view.resource = $('search-resource').value; view.q = $('search-id').value.trim(); view.records = 0;
  loadRecords().catch((error) => { $('search-status').textContent = error.message; });
});
refresh();
setInterval(refresh, config.refreshMs);
})();`;

const LABELS: Record<string, string> = { 'sales-profile': 'Sales profiles', account: 'Accounts', deal: 'Deals', activity: 'Activities' };

function body(summary: PageSummary): string {
  const rows = RESOURCES.map(
    (r) =>
      `<tr><th scope="row">${escapeHtml(LABELS[r] ?? r)}</th><td class="n" id="count-${escapeHtml(r)}">${summary.records[r].toLocaleString('en-US')}</td></tr>`,
  ).join('');
  const options = RESOURCES.map((r) => `<option value="${escapeHtml(r)}"${r === 'deal' ? ' selected' : ''}>${escapeHtml(r)}</option>`).join('');
  return `<main>
<h1>batch-sync sandbox</h1>
<p class="note" id="updated" role="status" aria-live="polite">Loading…</p>
<section aria-labelledby="h-records"><h2 id="h-records">What it holds</h2>
<table class="counts"><caption class="note">Records per resource</caption><thead><tr><th scope="col">Resource</th><th scope="col" class="n">Records</th></tr></thead><tbody>${rows}</tbody></table>
<p class="note" id="stat-batches"></p>
<form id="search-form" role="search"><label for="search-resource">Resource<select id="search-resource">${options}</select></label>
<label for="search-id">externalId starts with<input id="search-id" type="search" autocomplete="off" spellcheck="false"></label>
<button type="submit">Search</button></form>
<p class="note" id="search-status" aria-live="polite"></p>
<div class="cols"><div><ul class="plain" id="search-results" aria-label="Matching records"></ul><div class="pager" id="records-pager"></div></div>
<div><h3 id="record-title">No record chosen</h3><pre id="record-json" tabindex="0" aria-labelledby="record-title">Pick a record to see its JSON.</pre><p class="note" id="record-note"></p></div></div>
</section>
<section aria-labelledby="h-refusals"><h2 id="h-refusals">Items refused</h2>
<p class="note" id="refusals-note"></p>
<div id="refusals"></div>
<div class="pager" id="refusals-pager"></div>
</section>
<section aria-labelledby="h-batches"><h2 id="h-batches">Batches received</h2>
<p class="note" id="batches-note"></p>
<table id="batches"><thead><tr><th scope="col" class="n">#</th><th scope="col">Method</th><th scope="col">Resource</th><th scope="col">batchId</th><th scope="col" class="n">Items</th><th scope="col" class="n">Accepted</th><th scope="col" class="n">Errors</th><th scope="col">Answer</th></tr></thead><tbody id="batches-body"></tbody></table>
<div class="pager" id="batches-pager"></div>
</section>
</main>`;
}

/** The page with the counts as they stand; the script fetches the rest. */
export function sandboxPage(summary: PageSummary): { html: string; parts: { style: string; script: string; connectSelf: true } } {
  const parts = { style: STYLE, script: SCRIPT, connectSelf: true as const };
  const html = htmlPage({ title: 'batch-sync sandbox', ...parts, body: body(summary), data: { resources: RESOURCES, refreshMs: REFRESH_MS } });
  return { html, parts };
}
