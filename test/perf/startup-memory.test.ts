// What a run costs before its input does: a push of one row, to the embedded sandbox, in a child
// process. It peaked at 115 MB resident while validate of the same row peaked at 69 MB: V8's
// optimising compiler working on undici's WebAssembly HTTP parser at the first connection
// (src/send/connect.ts now keeps that parser on the baseline compiler: 81 MB). Memory only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'batch-sync-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function peakMb(args: string[], engine: string): number {
  const file = join(dir, 'sales-profiles.csv');
  writeFileSync(file, 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n');
  const probe = join(dir, 'probe.json');
  const r = spawnSync(
    process.execPath,
    ['--import', `file://${join(ROOT, 'test/bench/rss-probe.mjs')}`, join(ROOT, 'bin/batch-sync.js'), ...args, file, '--format', 'json'],
    {
      env: { ...process.env, BENCH_PROBE_FILE: probe, FORCE_COLOR: '0', BATCH_SYNC_ENGINE: engine },
      encoding: 'utf8',
    },
  );
  expect(r.status, r.stderr + r.stdout.slice(0, 2000)).toBe(0);
  expect(JSON.parse(r.stdout).counts['sales-profile'].accepted).toBe(1);
  return (JSON.parse(readFileSync(probe, 'utf8')) as { maxRssKb: number }).maxRssKb / 1024;
}

// auto (the default) and simple read one row on one thread; fast starts the read worker for any
// input, and its isolate (50–65 MB) is why it is not the default
test.each(['auto', 'simple'])('a push of one row peaks under 100 MB resident, as validate does (%s engine)', (engine) => {
  const validate = peakMb(['validate'], engine);
  const push = peakMb(['push', '--sandbox'], engine);
  expect(validate).toBeLessThan(100);
  expect(push).toBeLessThan(100);
});

// undici (~11 MB resident) and the sandbox load only when something is sent: every command imports
// every command's module, so a static import of either anywhere costs validate, init and history too
test('validate loads neither undici nor the sandbox', () => {
  const file = join(dir, 'sales-profiles.csv');
  writeFileSync(file, 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n');
  const list = join(dir, 'modules.json');
  const r = spawnSync(process.execPath, ['--import', `file://${join(ROOT, 'test/perf/module-probe.mjs')}`, join(ROOT, 'bin/batch-sync.js'), 'validate', file], {
    env: { ...process.env, MODULE_PROBE_FILE: list, FORCE_COLOR: '0' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const modules = JSON.parse(readFileSync(list, 'utf8')) as string[];
  expect(modules.some((m) => m.includes('/dist/commands/push.js'))).toBe(true);
  expect(modules.filter((m) => m.includes('/node_modules/undici/') || /\/dist\/sandbox\/(?!options\.js$)/.test(m))).toEqual([]);
});
