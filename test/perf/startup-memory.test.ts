// What a run costs before its input does: a push of one row, to the embedded sandbox, in a child
// process, against a validate of the same row and a bare Node (\`node -e 0\`), each measured in this
// run: what Node itself weighs changes between versions (a bare Node 20.20 peaks at 42 MB, 24.21 at
// 45 MB; a validate at 68 and 79), the ratios much less. On Node 20 a push peaked at 115 MB against
// validate's 69: V8's optimising compiler working on undici's WebAssembly HTTP parser at the first
// connection (src/run/connect.ts keeps that parser on the baseline compiler: 93 MB, 1.4 times
// validate's). Memory only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/batch-sync.js');
const dir = mkdtempSync(join(tmpdir(), 'batch-sync-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Peak resident memory of a child Node running `args`, in MB. */
function peakMb(args: string[], engine: string): number {
  const probe = join(dir, 'probe.json');
  const r = spawnSync(process.execPath, ['--import', `file://${join(ROOT, 'test/bench/rss-probe.mjs')}`, ...args], {
    env: { ...process.env, BENCH_PROBE_FILE: probe, FORCE_COLOR: '0', BATCH_SYNC_ENGINE: engine },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr + r.stdout.slice(0, 2000)).toBe(0);
  if (args[0] === BIN) expect(JSON.parse(r.stdout).counts['sales-profile'].accepted).toBe(1);
  return (JSON.parse(readFileSync(probe, 'utf8')) as { maxRssKb: number }).maxRssKb / 1024;
}

// auto (the default) and simple read one row on one thread; fast starts the read worker for any
// input, and its isolate (50–65 MB) is why it is not the default
test.each(['auto', 'simple'])('a push of one row peaks at most 1.5 times a validate of it, which peaks under twice a bare Node (%s engine)', (engine) => {
  const file = join(dir, 'sales-profiles.csv');
  writeFileSync(file, 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n');
  const bare = peakMb(['-e', '0'], engine);
  const validate = peakMb([BIN, 'validate', file, '--format', 'json'], engine);
  const push = peakMb([BIN, 'push', '--sandbox', file, '--format', 'json'], engine);
  const figures = `bare Node ${bare.toFixed(0)} MB, validate ${validate.toFixed(0)} MB, push ${push.toFixed(0)} MB`;
  console.log(`start-up (${engine}): ${figures}`);
  // measured on Node 20, 22 and 24: validate 1.6–1.8 times a bare Node, push 1.35–1.4 times validate
  // (the WebAssembly compile above was 1.8 times it)
  expect(validate, figures).toBeLessThan(2 * bare);
  expect(push, figures).toBeLessThan(1.5 * validate);
});

// undici (~11 MB resident) and the sandbox load only when something is sent: every command imports
// every command's module, so a static import of either anywhere costs validate, init and history too
test('validate loads neither undici nor the sandbox', () => {
  const file = join(dir, 'sales-profiles.csv');
  writeFileSync(file, 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n');
  const list = join(dir, 'modules.json');
  const r = spawnSync(process.execPath, ['--import', `file://${join(ROOT, 'test/perf/module-probe.mjs')}`, BIN, 'validate', file], {
    env: { ...process.env, MODULE_PROBE_FILE: list, FORCE_COLOR: '0' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const modules = JSON.parse(readFileSync(list, 'utf8')) as string[];
  expect(modules.some((m) => m.includes('/dist/commands/push.js'))).toBe(true);
  expect(modules.filter((m) => m.includes('/node_modules/undici/') || /\/dist\/sandbox\/(?!options\.js$)/.test(m))).toEqual([]);
});
