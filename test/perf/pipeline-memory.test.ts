// The whole pipeline streams: validate and push --dry-run of 300,000 generated deal rows (47 MB of
// CSV, several hundred MB if held as rows and items) finish with V8's old space capped at 96 MB,
// in a child process. A reader or a stage that buffered the input would die of heap exhaustion.
// So do an incremental first run into a sink and a rerun whose rows the state knows by their
// fingerprints (the path that neither validates nor serialises them).
// Memory only: wall-clock times are the bench's business (npm run bench), never a test's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMeasured } from '../helpers/measured-cli.js';

const ROOT = resolve(__dirname, '../..');
const ROWS = 300_000;
const OLD_SPACE_MB = 96;

let dir: string;

interface Run {
  code: number | null;
  report: { counts: Record<string, { read: number; accepted: number; invalid: number }> };
  maxRssMb: number;
  stderr: string;
}

async function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await runMeasured([...args, '--format', 'json'], { dir, env, node: [`--max-old-space-size=${OLD_SPACE_MB}`] });
  try {
    return { ...run, report: JSON.parse(run.stdout) };
  } catch {
    throw new Error(`exit ${run.code}: ${run.stderr.slice(-1500)}`);
  }
}

describe('the pipeline streams', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-sync-perf-'));
    const gen = spawnSync(process.execPath, [join(ROOT, 'test/bench/generate.mjs'), dir, String(ROWS)], { encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const command of [['validate'], ['push', '--dry-run']]) {
    it(`${command.join(' ')} of ${ROWS} rows fits a ${OLD_SPACE_MB} MB old space`, async () => {
      const run = await runCli([...command, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')]);
      expect(run.code, run.stderr.slice(-1500)).toBe(1); // the generated file has ~0.25% invalid rows
      const deals = run.report.counts.deal!;
      expect(deals.read).toBe(ROWS);
      expect(deals.accepted + deals.invalid).toBe(ROWS);
      expect(deals.invalid).toBeGreaterThan(ROWS * 0.001);
      expect(deals.invalid).toBeLessThan(ROWS * 0.005);
      // generous: holding the rows would need several times this
      expect(run.maxRssMb).toBeLessThan(400);
    }, 60_000);
  }

  it(`an incremental push of ${ROWS} rows, then a rerun that knows them all, fit a ${OLD_SPACE_MB} MB old space`, async () => {
    // the bench's sink: a separate process that answers success for every item
    const sink = spawn(process.execPath, [join(ROOT, 'test/bench/sink.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((done) => sink.stdout.once('data', (c: Buffer) => done((JSON.parse(c.toString()) as { port: number }).port)));
      const env = { BATCH_SYNC_BASE_URL: `http://127.0.0.1:${port}`, BATCH_SYNC_API_KEY: 'memory-test-key' };
      const files = [join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')];
      const state = ['--incremental', '--state-dir', join(dir, 'state')];
      const first = await runCli(['push', ...state, ...files], env);
      expect(first.code, first.stderr.slice(-1500)).toBe(1);
      const accepted = first.report.counts.deal!.accepted;
      expect(accepted).toBeGreaterThan(ROWS * 0.99);
      const again = await runCli(['push', '--dry-run', ...state, ...files], env);
      const deals = again.report.counts.deal as { read: number; accepted: number; invalid: number; skipped: number };
      expect(deals).toMatchObject({ read: ROWS, accepted: 0, skipped: accepted, invalid: ROWS - accepted });
      expect(first.maxRssMb).toBeLessThan(400);
      expect(again.maxRssMb).toBeLessThan(400);
    } finally {
      sink.kill();
    }
  }, 90_000);
});
