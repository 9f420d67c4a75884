// The whole pipeline streams: validate and push --dry-run of 300,000 generated deal rows (47 MB of
// CSV, several hundred MB if held as rows and items), and an incremental first run into a sink
// followed by a rerun whose rows the state knows by their fingerprints (the path that neither
// validates nor serialises them), each in a child process whose peak resident memory is compared
// with the same run on a tenth of the rows, in this test. A streaming run's peak grows by 10–60%
// (its off-heap id tables and the state's entries, and on Node 24 a young generation that V8 grows
// as a run goes on); one that kept its rows would need several times it.
// V8's old space is capped at twice the CSV's size, so such a build also dies of heap exhaustion
// within seconds instead of taking the shared machine's memory. (A reader keeping the file's bytes
// in Buffers, 160 bytes a row, is the reader's own test's to catch: test/read/streaming-memory.)
// Memory only: wall-clock times are the bench's business (npm run bench), never a test's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMeasured } from '../helpers/measured-cli.js';

const ROOT = resolve(__dirname, '../..');
const ROWS = 300_000;
// simple or fast, as npm test runs the suite; not auto, which would read the large input in the read
// worker (an isolate of its own) and the small one on one thread
const ENGINE = process.env.BATCH_SYNC_ENGINE === 'simple' ? 'simple' : 'fast';
// peak RSS on all the rows over peak RSS on a tenth, measured on Node 20 and 24: validate, dry run and
// rerun 1.10–1.45 (the most with the fast engine on Node 24), the incremental first push up to 1.6
// (the state it records keeps every accepted id in memory, by design); keeping the rows: over 2.5
const MAX_GROWTH = 2;

let dir: string;
let oldSpaceMb: number;

interface Run {
  code: number | null;
  report: { counts: Record<string, { read: number; accepted: number; invalid: number }> };
  maxRssMb: number;
  stderr: string;
}

async function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await runMeasured([...args, '--format', 'json'], {
    dir,
    env: { ...env, BATCH_SYNC_ENGINE: ENGINE },
    node: [`--max-old-space-size=${oldSpaceMb}`],
  });
  try {
    return { code: run.code, report: JSON.parse(run.stdout), maxRssMb: run.maxRssMb, stderr: run.stderr };
  } catch {
    throw new Error(`exit ${run.code}: ${run.stderr.slice(-1500)}`);
  }
}

/** The generated exports of `rows` deals (and their sales profiles). */
function inputs(rows: number): string[] {
  const at = join(dir, String(rows));
  return [join(at, 'sales-profiles.csv'), join(at, 'deals.csv')];
}

function expectStreaming(label: string, tenth: Run, all: Run): void {
  const figures = `${label} (${ENGINE} engine): peak ${tenth.maxRssMb.toFixed(0)} MB on ${ROWS / 10} rows, ${all.maxRssMb.toFixed(0)} MB on ${ROWS} (${(all.maxRssMb / tenth.maxRssMb).toFixed(2)} times)`;
  console.log(figures);
  expect(all.maxRssMb, figures).toBeLessThan(MAX_GROWTH * tenth.maxRssMb);
}

describe('the pipeline streams', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-sync-perf-'));
    for (const rows of [ROWS / 10, ROWS]) {
      const gen = spawnSync(process.execPath, [join(ROOT, 'test/bench/generate.mjs'), join(dir, String(rows)), String(rows)], { encoding: 'utf8' });
      expect(gen.status, gen.stderr).toBe(0);
    }
    oldSpaceMb = Math.ceil((2 * statSync(inputs(ROWS)[1]!).size) / 2 ** 20);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const command of [['validate'], ['push', '--dry-run']]) {
    it(`${command.join(' ')} of ${ROWS} rows peaks under ${MAX_GROWTH} times the same on a tenth of them, in an old space of twice the CSV`, async () => {
      const tenth = await runCli([...command, ...inputs(ROWS / 10)]);
      expect(tenth.code, tenth.stderr.slice(-1500)).toBe(1);
      const run = await runCli([...command, ...inputs(ROWS)]);
      expect(run.code, run.stderr.slice(-1500)).toBe(1); // the generated file has ~0.25% invalid rows
      const deals = run.report.counts.deal!;
      expect(deals.read).toBe(ROWS);
      expect(deals.accepted + deals.invalid).toBe(ROWS);
      expect(deals.invalid).toBeGreaterThan(ROWS * 0.001);
      expect(deals.invalid).toBeLessThan(ROWS * 0.005);
      expectStreaming(command.join(' '), tenth, run);
    }, 150_000);
  }

  it(`an incremental push of ${ROWS} rows, then a rerun that knows them all, peak under ${MAX_GROWTH} times the same on a tenth of them`, async () => {
    // the bench's sink: a separate process that answers success for every item
    const sink = spawn(process.execPath, [join(ROOT, 'test/bench/sink.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((done) => sink.stdout.once('data', (c: Buffer) => done((JSON.parse(c.toString()) as { port: number }).port)));
      const env = { BATCH_SYNC_BASE_URL: `http://127.0.0.1:${port}`, BATCH_SYNC_API_KEY: 'memory-test-key' };
      const twice = async (rows: number) => {
        const state = ['--incremental', '--state-dir', join(dir, `state-${rows}`)];
        const first = await runCli(['push', ...state, ...inputs(rows)], env);
        expect(first.code, first.stderr.slice(-1500)).toBe(1);
        const accepted = first.report.counts.deal!.accepted;
        expect(accepted).toBeGreaterThan(rows * 0.99);
        const again = await runCli(['push', '--dry-run', ...state, ...inputs(rows)], env);
        const deals = again.report.counts.deal as { read: number; accepted: number; invalid: number; skipped: number };
        expect(deals).toMatchObject({ read: rows, accepted: 0, skipped: accepted, invalid: rows - accepted });
        return { first, again };
      };
      const tenth = await twice(ROWS / 10);
      const all = await twice(ROWS);
      expectStreaming('incremental push', tenth.first, all.first);
      expectStreaming('incremental rerun', tenth.again, all.again);
    } finally {
      sink.kill();
    }
  }, 420_000);
});
