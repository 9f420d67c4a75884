// The small defects of issue 16 item 14, each through the CLI on real files and sockets: orphan
// snapshot temps, listeners per request, JSON numbers beyond a double, `__proto__` keys in a
// profile and in the sandbox's inspect path, odd locks, and FIFOs where state files belong.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { expectCleanStderr } from './bad-input-checks.js';
import { KEY, accountsFile } from './faults-helpers.js';

let sandbox: SandboxHandle;
let server: MisbehavingServer | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.reset();
});

const env = () => ({ BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url });
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('orphan snapshot temps of a run killed mid-compaction', () => {
  test("are removed at the next open when their writer is gone or they are older than the lock; a live writer's is kept", async () => {
    const { file, stateDir } = accountsFile(3);
    expect((await runCli(['push', '--incremental', '--state-dir', stateDir, file], env())).code).toBe(0);
    const hourAgo = new Date(Date.now() - 3600_000);
    const deadWriter = `.state.snapshot.${deadPid()}.0badc0de.tmp`;
    const oldLiveWriter = `.state.snapshot.${process.pid}.01df11e0.tmp`;
    const liveWriter = `.state.snapshot.${process.pid}.f00dfeed.tmp`;
    for (const f of [deadWriter, oldLiveWriter, liveWriter, 'notes.tmp']) writeFileSync(join(stateDir, f), 'half a snapshot');
    utimesSync(join(stateDir, oldLiveWriter), hourAgo, hourAgo);
    const inAnHour = new Date(Date.now() + 3600_000);
    utimesSync(join(stateDir, liveWriter), inAnHour, inAnHour);
    const r = await spawnCli(['push', '--incremental', '--state-dir', stateDir, file], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const left = readdirSync(stateDir);
    expect(left).not.toContain(deadWriter);
    expect(left).not.toContain(oldLiveWriter);
    expect(left).toContain(liveWriter);
    expect(left).toContain('notes.tmp');
  });
});

describe('many requests in flight', () => {
  test('--concurrency 16: no MaxListenersExceededWarning, in flight or sleeping before a retry', async () => {
    const rows = 48;
    server = await startServer(
      Array.from({ length: 16 }, () => ({ status: 503, delayMs: 100 })),
      { status: 200, delayMs: 150, body: { data: { code: 200, success: 1, error: [] }, status: 'SUCCESS' } },
    );
    const { file } = accountsFile(rows);
    const r = await spawnCli(['push', '--concurrency', '16', '--batch-size', '1', '--retry-delay', '200', file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(server.maxInFlight).toBeGreaterThan(10);
    expect(r.stderr).not.toMatch(/MaxListeners|memory leak/);
  });
});

describe('JSON numbers a double cannot hold', () => {
  const deals = (value: string) =>
    `[\n{"externalId":"D-1","title":"ok","ownerExternalId":"ana","amount":{"value":1.5,"currency":"USD"}},\n{"externalId":"D-2","title":"big",\n "ownerExternalId":"ana","amount":{"value":${value},"currency":"USD"}}\n]`;
  test.each([
    ['1e400', /deals\.json:3.*1e400.*(too large|overflow)/],
    ['-2.5E+999', /deals\.json:3.*-2\.5E\+999.*(too large|overflow)/],
    ['1e-400', /deals\.json:3.*1e-400.*(too small|underflow).*0/],
  ])('%s: the row is invalid, naming file, line and why', async (value, expected) => {
    const dir = tempFiles({ 'deals.json': deals(value) });
    const r = await runCli(['validate', join(dir, 'deals.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(expected);
  });
});

describe('__proto__ as a key', () => {
  // written as text: in an object literal `__proto__` would set the prototype, not make a key
  test.each([
    [
      'a field named __proto__',
      '{"resource":"account","fields":{"externalId":{"column":"id"},"name":{"column":"n"},"type":{"const":"COMPANY"},"__proto__":{"column":"x"}}}',
      'fields.__proto__',
    ],
    [
      'a map entry __proto__',
      '{"resource":"account","fields":{"externalId":{"column":"id"},"name":{"column":"n"},"type":{"column":"t","map":{"__proto__":"COMPANY","company":"COMPANY"}}}}',
      'fields.type.map.__proto__',
    ],
  ])('a profile with %s is refused, naming it', async (_name, profile, where) => {
    const dir = tempFiles({ 'p.json': profile, 'accounts.csv': 'id,n,t,x\nA-1,Acme,company,y\n' });
    const r = await runCli(['validate', '--profile', join(dir, 'p.json'), join(dir, 'accounts.csv')]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expectCleanStderr(r.stderr);
    expect(r.stderr).toMatch(new RegExp(`^error: profile .*p\\.json: ${where.replace(/\./g, '\\.')}: `, 'm'));
  });

  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '%s: the sandbox answers GET /_sandbox/records/<it> with 404, --resource <it> is a usage error',
    async (name) => {
      const res = await fetch(`${sandbox.url}/_sandbox/records/${name}`, { headers: { 'x-api-key': KEY } });
      expect(res.status).toBe(404);
      const { file } = accountsFile(1);
      const r = await runCli(['validate', '--resource', name, file]);
      expect(r.code).toBe(2);
      expectCleanStderr(r.stderr);
    },
  );
});

describe('odd locks', () => {
  test.each([0, -1, 2.5, 1e21])('a lock of pid %s (no process can have it) is stale: taken over with a warning', async (pid) => {
    const { file, stateDir } = accountsFile(2);
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, 'lock'), JSON.stringify({ pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00Z', runId: 'odd' }));
    const r = await spawnCli(['push', '--incremental', '--state-dir', stateDir, file], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/took over the lock/);
    expect(readdirSync(stateDir).filter((f) => f.startsWith('lock'))).toEqual([]);
  });

  test('a directory where the lock file belongs: a clear error, and no lock.stale-* folders left', async () => {
    const { file, stateDir } = accountsFile(2);
    mkdirSync(join(stateDir, 'lock'), { recursive: true });
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(stateDir, 'lock'), old, old);
    const r = await spawnCli(['push', '--incremental', '--state-dir', stateDir, file], { env: env(), timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expectCleanStderr(r.stderr);
    expect(r.stderr).toMatch(/^error: .*lock.* is a directory/m);
    expect(readdirSync(stateDir).filter((f) => f.startsWith('lock'))).toEqual(['lock']);
    expect(sandbox.records('account')).toHaveLength(0);
  });
});

describe('a FIFO where a state file belongs', () => {
  test.each(['state.snapshot', 'state.journal', 'lock'])('%s: refused with a clear error, not a hang', async (name) => {
    const { file, stateDir } = accountsFile(2);
    mkdirSync(stateDir, { recursive: true });
    execFileSync('mkfifo', [join(stateDir, name)]);
    const r = await spawnCli(['push', '--incremental', '--state-dir', stateDir, file], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(2);
    expectCleanStderr(r.stderr);
    expect(r.stderr).toMatch(new RegExp(`^error: .*${name.replace('.', '\\.')}.*not a regular file`, 'm'));
    expect(sandbox.records('account')).toHaveLength(0);
    expect(existsSync(join(stateDir, name))).toBe(true);
  });
});

// issue 28 item 5: a FIFO in <state-dir>/in-flight/ blocked the main thread for ever (SIGTERM did
// nothing, the lock stayed); a directory there said EISDIR without its path. The spawned CLI has a
// watchdog: a hang ends as a SIGKILL after 20 s and fails the `signal` assertion.
describe('something that is not a regular file among the in-flight records', () => {
  test.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p])],
    ['a directory', (p: string) => mkdirSync(p)],
  ])('%s: refused at once naming its path, the lock released, nothing sent', async (what, make) => {
    const { file, stateDir } = accountsFile(2);
    mkdirSync(join(stateDir, 'in-flight'), { recursive: true });
    const bad = join(stateDir, 'in-flight', 'left.0123456789.batch');
    make(bad);
    const r = await spawnCli(['push', '--incremental', '--state-dir', stateDir, file], { env: env(), timeoutMs: 20_000 });
    expect(r.signal ?? null, 'ended on its own').toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expectCleanStderr(r.stderr);
    expect(r.stderr).toContain(`error: cannot use the in-flight record ${bad}: it is ${what}, not a regular file`);
    expect(existsSync(join(stateDir, 'lock'))).toBe(false);
    expect(sandbox.records('account')).toHaveLength(0);
  });
});

// issue 28 item 8: an in-flight record whose body was edited after it was written was resent as it
// stood. Its body is now checked against the digest written with it.
test('an in-flight record whose body was edited is not resent: set aside with a warning, its rows sent from the input', async () => {
  const { file, stateDir } = accountsFile(2);
  // the first answer cannot be read: the batch stays in flight for the next run
  server = await startServer([{ status: 200, body: '<html>gateway</html>', headers: { 'content-type': 'text/html' } }]);
  const run = (extra: string[] = []) =>
    spawnCli(['push', '--retries', '0', '--incremental', '--state-dir', stateDir, ...extra, file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server!.url },
      timeoutMs: 30_000,
    });
  const first = await run();
  expect(first.code, first.stderr).toBeGreaterThan(0);
  const dir = join(stateDir, 'in-flight');
  const [name] = readdirSync(dir).filter((n) => n.endsWith('.batch'));
  expect(name).toBeDefined();
  const record = join(dir, name!);
  const text = readFileSync(record, 'latin1');
  // the same length: only the digest can tell
  writeFileSync(record, text.replace('"Account 1"', '"Account X"'), 'latin1');
  expect(readFileSync(record, 'latin1')).not.toBe(text);
  const before = server.requests.length;
  const second = await run();
  expect(second.code, second.stderr).toBe(0);
  const sent = server.requests.slice(before).map((q) => q.body.toString());
  expect(sent.join('\n')).not.toContain('Account X');
  expect(sent.join('\n')).toContain('"Account 1"');
  expect(second.stderr).toContain(`warning: ${record}: an in-flight record that does not match its digest`);
  expect(readdirSync(dir).filter((n) => n.endsWith('.batch'))).toEqual([]);
  expect(existsSync(`${record}.edited`)).toBe(true);
});
