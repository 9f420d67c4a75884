// Measured child processes: wall time from the parent, peak RSS and CPU from the child itself
// (rss-probe.mjs on exit), or from /proc for long-lived servers the harness stops.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const probe = new URL('./rss-probe.mjs', import.meta.url).href;
const probeDir = mkdtempSync(join(tmpdir(), 'batch-sync-probe-'));
let n = 0;

/** Runs `node <script> <args>` to the end; the JSON it prints last on stdout is parsed as `report`. */
export function runChild(script, args, { env = {} } = {}) {
  const probeFile = join(probeDir, `probe-${++n}.json`);
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--import', probe, script, ...args], {
    env: { ...process.env, ...env, BENCH_PROBE_FILE: probeFile, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = [];
  const err = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => err.push(c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallSec = Number(process.hrtime.bigint() - started) / 1e9;
      const stdout = Buffer.concat(out).toString('utf8');
      let probed;
      try {
        probed = JSON.parse(readFileSync(probeFile, 'utf8'));
      } catch {
        return reject(new Error(`${script} ${args.join(' ')} exited ${code} without a probe:\n${Buffer.concat(err).toString('utf8').slice(-2000)}`));
      }
      let report;
      try {
        report = JSON.parse(stdout);
      } catch {
        report = undefined;
      }
      resolve({ wallSec, exitCode: code, ...probed, report, stdout, counts: report?.counts ?? report });
    });
  });
}

/** Starts a server child and waits for the first stdout line from which `ready` extracts a value. */
export function startChild(script, args, ready) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${script} exited ${code} before it was ready`)));
    lines.on('line', (line) => {
      let value;
      try {
        value = ready(line);
      } catch {
        value = undefined;
      }
      if (value === undefined) return;
      child.removeAllListeners('exit');
      resolve({
        child,
        value,
        // utime + stime, in clock ticks (100 per second on Linux)
        cpuSec: () =>
          readFileSync(`/proc/${child.pid}/stat`, 'utf8')
            .split(') ')[1]
            .split(' ')
            .slice(11, 13)
            .reduce((a, b) => a + Number(b), 0) / 100,
        peakRssKb: () => Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]),
      });
    });
  });
}

export function stopChild(handle) {
  return new Promise((resolve) => {
    handle.child.on('exit', () => resolve());
    handle.child.kill('SIGTERM');
  });
}
