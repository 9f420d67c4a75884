// `npm run bench [-- --rows N] [--out file] [--only a,c,...] [--dir d]`: generates the bench input in
// a temp dir and measures each stage in its own child process (wall time in the parent, peak RSS
// and CPU from the child itself through rss-probe.mjs). Prints a table and writes the JSON.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEALS_HEADER, generate, generateSpanish } from './generate.mjs';
import { generateXlsx } from './generate-xlsx.mjs';
import { startChild, runChild, stopChild } from './children.mjs';
import { printTable } from './print.mjs';
import { throughputStages } from './throughput.mjs';

const here = new URL('.', import.meta.url).pathname;

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const rows = Number(opt('rows', '1000000'));
// `--cli path/to/bin/batch-sync.js`: measure another build (before/after figures)
const cli = opt('cli', join(here, '../../bin/batch-sync.js'));
const small = Math.min(100_000, rows);
const only = opt('only', 'a,b,c,d,e,f,s,g,x,h').split(',');
// the machine is shared: each stage can run `--repeat n` times, the median wall (and its RSS) is kept
const repeat = Number(opt('repeat', '1'));
const dir = opt('dir', undefined) ?? mkdtempSync(join(tmpdir(), 'batch-sync-bench-'));
const out = opt('out', join(dir, 'bench-results.json'));
const KEY = 'bench-key';
const BATCH = '500';

console.error(`generating ${rows} rows in ${dir}`);
const full = generate(join(dir, 'full'), rows);
const part = generate(join(dir, 'small'), small);
const changed = only.includes('f') ? generate(join(dir, 'changed'), rows, 100) : undefined;
// (g) what most users push: the same deals as a Spanish Excel export, through a profile
const spanish = only.includes('g') ? generateSpanish(join(dir, 'spanish'), rows) : undefined;
// (x) the same deals as an .xlsx workbook with typed cells, pushed like (c): its ratio to (c)
const workbook = only.includes('x') ? await generateXlsx(join(dir, 'xlsx'), rows) : undefined;

const results = { rows, repeat, command: `node test/bench/run.mjs ${args.join(' ')}`.trim(), machine: machine(), stages: {} };
const stage = (key, label, r, items, extra = {}) => {
  const deals = r.report?.counts?.deal;
  results.stages[key] = { label, ...r, rowsPerSec: Math.round(items / r.wallSec), ...(deals ? { deals } : {}), ...extra };
  console.error(`  ${key} ${label}: ${r.wallSec.toFixed(2)} s, ${Math.round(r.maxRssKb / 1024)} MB`);
};
/** The run of median wall among `runs`, with every run's wall and the highest peak RSS. */
function medianOf(runs) {
  const sorted = [...runs].sort((x, y) => x.wallSec - y.wallSec);
  const mid = sorted[Math.floor(sorted.length / 2)];
  return { ...mid, walls: sorted.map((r) => +r.wallSec.toFixed(3)), maxRssKbOfRuns: Math.max(...sorted.map((r) => r.maxRssKb)) };
}
async function median(run) {
  const runs = [];
  for (let i = 0; i < repeat; i++) runs.push(await run());
  return medianOf(runs);
}
const push = (files, env, extra = []) => runChild(cli, ['push', ...files, '--batch-size', BATCH, '--format', 'json', ...extra], { env });

if (only.includes('a')) stage('a', 'csv-parse floor', await median(() => runChild(join(here, 'floor.mjs'), [full.deals])), rows);
if (only.includes('b')) stage('b', 'batch-sync validate', await median(() => runChild(cli, ['validate', full.profiles, full.deals, '--format', 'json'])), rows);

const sink = await startChild(join(here, 'sink.mjs'), [], (line) => JSON.parse(line).port);
const sinkEnv = { BATCH_SYNC_BASE_URL: `http://127.0.0.1:${sink.value}`, BATCH_SYNC_API_KEY: KEY };
// items the sink received since the last call: proves what a push really sent
const sinkItems = async () => (await (await fetch(`${sinkEnv.BATCH_SYNC_BASE_URL}/_count`)).json()).items;
if (only.includes('c')) {
  stage('c', 'push to a local sink', await median(() => push([full.profiles, full.deals], sinkEnv)), rows, { sinkItems: (await sinkItems()) / repeat });
  stage('c100k', `push to a local sink, ${small} rows`, await median(() => push([part.profiles, part.deals], sinkEnv)), small, {
    sinkItems: (await sinkItems()) / repeat,
  });
}
if (only.includes('g')) {
  const r = await median(() => push([spanish.deals, '--resource', 'deal', '--profile', spanish.profile], sinkEnv));
  stage('g', 'push through a profile (Spanish Excel export)', r, rows, { sinkItems: (await sinkItems()) / repeat });
}
if (only.includes('x')) {
  const r = await median(() => push([workbook.profiles, workbook.deals], sinkEnv));
  stage('x', 'push the deals as an .xlsx workbook', r, rows, { sinkItems: (await sinkItems()) / repeat });
}
if (only.includes('d'))
  stage(
    'd',
    'the obvious script',
    await median(() => runChild(join(here, 'obvious.mjs'), [full.deals, sinkEnv.BATCH_SYNC_BASE_URL, BATCH], { env: sinkEnv })),
    rows,
    { sinkItems: (await sinkItems()) / repeat },
  );
if (only.includes('f')) {
  const help = (await runChild(cli, ['push', '--help'])).stdout;
  if (!help.includes('--incremental')) {
    results.stages.f = { skipped: 'incremental mode not available' };
    console.error('  f skipped: incremental mode not available');
  } else {
    // each repeat seeds a state of its own (f0), then reruns on it (f): the medians of each
    const seeds = [];
    const reruns = [];
    await sinkItems();
    for (let i = 0; i < repeat; i++) {
      const state = ['--incremental', '--state-dir', join(dir, 'state', String(i))];
      seeds.push({ ...(await push([full.profiles, full.deals], sinkEnv, state)), sinkItems: await sinkItems() });
      reruns.push({ ...(await push([changed.profiles, changed.deals], sinkEnv, state)), sinkItems: await sinkItems() });
    }
    stage('f0', 'incremental first run (seeds the state)', medianOf(seeds), rows);
    stage('f', 'incremental rerun, 1% changed', medianOf(reruns), rows);
  }
}
// (s) what a run pays to open its state before its first row: a dry run of a header-only deals file
// against the state (f) left (the deals' snapshot with their fingerprints, the rerun's journal over
// it), and (s0) the same against an empty state directory, its floor in the same run: s/s0 and s − s0
if (only.includes('s')) {
  if (results.stages.f?.wallSec === undefined) {
    results.stages.s = { skipped: 'needs the state the incremental stage leaves (--only f,s)' };
    console.error('  s skipped: needs stage f');
  } else {
    // named deals.csv: its kind comes from its name, as for every other stage's file
    const header = join(dir, 'header-only', 'deals.csv');
    mkdirSync(join(dir, 'header-only'), { recursive: true });
    writeFileSync(header, `${DEALS_HEADER}\n`);
    const dry = (state) => runChild(cli, ['push', '--dry-run', '--incremental', '--state-dir', state, '--format', 'json', header], { env: sinkEnv });
    stage('s0', 'dry run of no rows, empty state (the floor of s)', await median(() => dry(join(dir, 'state-empty'))), rows);
    stage('s', `dry run of no rows against the state of (f): ${rows} deals`, await median(() => dry(join(dir, 'state', '0'))), rows);
  }
}
await stopChild(sink);

if (only.includes('e')) {
  // (e) the sandbox's own capacity: pre-built 500-item bodies, 4 in flight, into a fresh `batch-sync sandbox`
  const once = async () => {
    const sandbox = await startChild(cli, ['sandbox', '--port', '0', '--quiet', '--api-key', KEY], (line) => /listening on (\S+)/.exec(line)?.[1]);
    try {
      const before = sandbox.cpuSec();
      const r = await runChild(join(here, 'sandbox-load.mjs'), [full.profiles, full.deals, sandbox.value, BATCH, '4'], { env: { BATCH_SYNC_API_KEY: KEY } });
      const sandboxCpu = sandbox.cpuSec() - before;
      const accepted = r.report?.accepted ?? 0;
      return {
        label: 'sandbox accepting pre-built batches of 500',
        wallSec: r.report.seconds,
        rowsPerSec: r.report.itemsPerSec,
        maxRssKb: sandbox.peakRssKb(),
        exitCode: r.exitCode,
        accepted,
        sandboxCpuSec: sandboxCpu,
        sandboxItemsPerSec: r.report.itemsPerSec,
        sandboxItemsPerCpuSec: Math.round(accepted / sandboxCpu),
        sandboxPeakRssKb: sandbox.peakRssKb(),
      };
    } finally {
      await stopChild(sandbox);
    }
  };
  const runs = [];
  for (let i = 0; i < repeat; i++) runs.push(await once());
  // the same items in every run: the median wall is the median rate
  const e = medianOf(runs);
  results.stages.e = { ...e, itemsPerSecOfRuns: runs.map((r) => r.sandboxItemsPerSec).sort((x, y) => y - x) };
  console.error(`  e sandbox: ${e.sandboxItemsPerSec} items/s`);
}

// (h) against a realistic API: latency, rate limits, capacity, an outage (throughput.mjs); `--only h`
// runs them all, `--only h1,h3` a part
const hParts = only.includes('h') ? undefined : only.filter((k) => /^h\d/.test(k));
if (hParts === undefined || hParts.length > 0) {
  const h = await throughputStages({ cli, dir, runChild, key: KEY, ...(hParts ? { only: hParts } : {}) });
  Object.assign(results.stages, h.stages);
  results.throughput = { idealSec: h.idealSec, unloadedP95Ms: h.unloadedP95Ms, sweep: h.sweep, bestFixed: h.bestFixed, targets: h.targets };
}

const s = results.stages;
const ratio = (x, y) => (s[x]?.wallSec && s[y]?.wallSec ? +(s[x].wallSec / s[y].wallSec).toFixed(3) : null);
results.ratios = {
  'b/a': ratio('b', 'a'),
  'c/a': ratio('c', 'a'),
  'c/d': ratio('c', 'd'),
  'd/c': ratio('d', 'c'),
  'f/a': ratio('f', 'a'),
  'g/c': ratio('g', 'c'),
  's/s0': ratio('s', 's0'),
  's-s0 (opening the state, s)': s.s?.wallSec && s.s0?.wallSec ? +(s.s.wallSec - s.s0.wallSec).toFixed(3) : null,
  'x/c': ratio('x', 'c'),
  'rss c 1M / c 100k': s.c && s.c100k ? +(s.c.maxRssKb / s.c100k.maxRssKb).toFixed(3) : null,
  ...results.throughput?.targets,
};
writeFileSync(
  out,
  JSON.stringify(results, (k, v) => (k === 'stdout' || k === 'report' ? undefined : v), 2),
);
printTable(results);
console.log(`\nresults: ${out}`);
if (!args.includes('--keep'))
  for (const d of ['full', 'small', 'changed', 'state', 'state-empty', 'header-only', 'spanish', 'xlsx', 'h', 'h-probe'])
    rmSync(join(dir, d), { recursive: true, force: true });

function machine() {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown';
  return { nproc: availableParallelism(), node: process.version, cpu };
}
