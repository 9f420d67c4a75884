// The request overhead of --isolate-unattributed (issue 21): 10,000 deals in batches of 100 pushed by
// the built CLI into a sandbox answering as the documentation shows (details that name no row), with
// 0, 1, 10 and 100 refused rows spread evenly (and 100 all in one batch, the worst case). Counts the requests the sandbox received, with and
// without isolation. Run: npm run build && node test/bench/isolation.mjs
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../../dist/sandbox/index.js';

const ROWS = 10_000;
const BIN = resolve(import.meta.dirname, '../../bin/batch-sync.js');
const dir = mkdtempSync(join(tmpdir(), 'batch-sync-isolation-'));
writeFileSync(join(dir, 'sales-profiles.csv'), 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n');

function deals(refused, clustered = false) {
  const every = refused === 0 ? Infinity : ROWS / refused;
  const lines = ['externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency'];
  for (let i = 0; i < ROWS; i++) {
    // the refused rows sit mid-batch, spread evenly over the file
    const hit = clustered ? i < refused : Math.floor((i + every / 2) % every) === 0 && refused > 0;
    const owner = hit ? 'ghost' : 'ana';
    lines.push(`D-${i},Deal ${i},${owner},ana,false,${i}.00,USD`);
  }
  const sub = join(dir, `${refused}${clustered ? 'c' : ''}`);
  mkdirSync(sub);
  const file = join(sub, 'deals.csv');
  writeFileSync(file, lines.join('\n'));
  return file;
}

console.log('| refused rows | isolation | requests | extra vs. no refusals | accepted | rejected | unverified | wall |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
let baseline;
for (const [refused, clustered] of [[0], [1], [10], [100], [100, true]]) {
  const file = deals(refused, clustered);
  for (const isolate of [false, true]) {
    if (refused === 0 && isolate) continue;
    const sandbox = await startSandbox({ port: 0, apiKey: 'bench-key', answers: 'documented' });
    const args = ['push', '--format', 'json', '--batch-size', '100', ...(isolate ? ['--isolate-unattributed'] : []), join(dir, 'sales-profiles.csv'), file];
    const started = Date.now();
    // asynchronously: the sandbox answers from this process's event loop
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], {
      env: { ...process.env, BATCH_SYNC_API_KEY: 'bench-key', BATCH_SYNC_BASE_URL: sandbox.url },
      maxBuffer: 64 << 20,
    }).catch((e) => e);
    const wall = ((Date.now() - started) / 1000).toFixed(1);
    if (!r.stdout) throw new Error(`push printed no report: ${r.stderr}`);
    const report = JSON.parse(r.stdout);
    const requests = sandbox.stats().requests;
    await sandbox.close();
    baseline ??= requests;
    const d = report.counts.deal;
    const unverified = report.notAccepted.filter((o) => o.message === 'UNVERIFIED').length;
    console.log(
      `| ${refused}${clustered ? ' (all in the first batch)' : ''} | ${isolate ? 'on' : 'off'} | ${requests} | ${requests - baseline} | ${d.accepted} | ${d.rejected} | ${unverified} | ${wall} s |`,
    );
  }
}
