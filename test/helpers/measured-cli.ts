// The built CLI in a child process that records its own peak RSS (test/bench/rss-probe.mjs), for
// tests that compare memory as ratios or against a capped old space. Memory only, never time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
let runs = 0;

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  maxRssMb: number;
}

/** `dir`: where the probe writes; `node`: flags for node itself (`--max-old-space-size=96`). */
export function runMeasured(args: string[], options: { dir: string; env?: Record<string, string>; node?: string[] }): Promise<MeasuredRun> {
  const probeFile = join(options.dir, `probe-${process.pid}-${++runs}.json`);
  const argv = [...(options.node ?? []), '--import', `file://${join(ROOT, 'test/bench/rss-probe.mjs')}`, join(ROOT, 'bin/batch-sync.js'), ...args];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, argv, {
      env: { ...process.env, ...options.env, BENCH_PROBE_FILE: probeFile, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      try {
        const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as { maxRssKb: number };
        done({ code, stdout, stderr, maxRssMb: probe.maxRssKb / 1024 });
      } catch {
        fail(new Error(`exit ${code}: ${stderr.slice(-1500)}`));
      }
    });
  });
}
