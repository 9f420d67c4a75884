// Control characters from outside — CSV cells, server error texts, file names, a lock's hostname, a
// batchId in the sandbox's log — must not reach a terminal raw: a carriage return and an erase would
// overwrite a report line, OSC 8 links and title sequences would act on the terminal. They are shown
// escaped (`\r`, `\u001b`) on stdout and stderr and kept exact in JSON reports and the errors CSV.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnCli, startCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { KEY, okBody } from './faults-helpers.js';

const FORGED_ID = 'COMP\rOK: all rows accepted\u001b[K';
const OSC8 = '\u001b]8;;http://evil.example/\u001b\\click here\u001b]8;;\u001b\\';
const TITLE = '\u001b]0;pwned\u0007';
const C1 = '\u009b2J'; // CSI as one C1 character: clears the screen on some terminals
const FILE = `accounts${TITLE}.csv`;

/** Anything a terminal acts on: C0 but the newline, DEL, C1. (FORCE_COLOR=0: no colours either.) */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function input() {
  const dir = tempFiles({ [FILE]: `externalId,name,type\n"${FORGED_ID}",Acc 1,COMPANY\nA-2,Acc 2,COMPANY\n` });
  return { dir, file: join(dir, FILE), stateDir: join(dir, 'state') };
}

async function rejectingServer() {
  server = await startServer([], {
    respond: (req) => ({ status: 200, body: okBody(req, [{ message: `VALIDATION_ERROR${TITLE}`, detail: `items[0]: see ${OSC8} ${C1} name\rOK` }]) }),
  });
  return server;
}

describe('control characters on the terminal', () => {
  test('human report, --verbose: a CSV cell, a server text and a file name are shown escaped', async () => {
    const { dir, file, stateDir } = input();
    await rejectingServer();
    const errors = join(dir, 'failed.csv');
    const r = await spawnCli(['push', '--resource', 'account', '--verbose', '--incremental', '--state-dir', stateDir, '--errors', errors, file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server!.url },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    // what the user sees instead: the same characters, escaped and readable
    expect(r.stdout).toContain('  COMP\\rOK: all rows accepted\\u001b[K');
    expect(r.stdout).toContain('\\u001b]8;;http://evil.example/\\u001b\\click here');
    expect(r.stdout).toContain('\\u009b2J');
    expect(r.stdout).toContain('accounts\\u001b]0;pwned\\u0007.csv');
    // the verdict is the last line and nothing forged one before it
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^FAILED: 1 of 2 rows not accepted/);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('OK'))).toEqual([]);
    // the files keep the data exact
    const csv = readFileSync(errors, 'utf8');
    expect(csv).toContain(`"${FORGED_ID}"`);
    const reports = join(stateDir, 'reports');
    const [run] = readdirSync(reports);
    const report = JSON.parse(readFileSync(join(reports, run!, 'report.json'), 'utf8'));
    expect(JSON.stringify(report)).toContain(JSON.stringify(FORGED_ID).slice(1, -1));
    expect(JSON.stringify(report)).toContain(JSON.stringify(OSC8).slice(1, -1));
  });

  test('--format json on stdout: valid JSON with the values exact', async () => {
    const { file } = input();
    await rejectingServer();
    const r = await spawnCli(['push', '--resource', 'account', '--format', 'json', file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server!.url },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const report = JSON.parse(r.stdout) as { notAccepted: { externalId: string; file: string; message: string; detail: string }[] };
    expect(report.notAccepted[0]).toMatchObject({ externalId: FORGED_ID, message: `VALIDATION_ERROR${TITLE}` });
    expect(report.notAccepted[0]!.detail).toContain(OSC8);
    expect(report.notAccepted[0]!.detail).toContain(C1);
  });

  test('with colours on, our colours stay and the forged sequences are still escaped', async () => {
    const { file } = input();
    await rejectingServer();
    const r = await spawnCli(['push', '--resource', 'account', file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server!.url, FORCE_COLOR: '1', NO_COLOR: undefined },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/\u001b\[31m/); // the red of FAILED
    expect(r.stdout).toContain('  COMP\\rOK: all rows accepted\\u001b[K');
    // the only escape sequences left are colours (SGR)
    expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(RAW_CONTROL);
  });

  test('a lock held by a host whose name holds escape sequences', async () => {
    const { file, stateDir } = input();
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(
      join(stateDir, 'lock'),
      JSON.stringify({ pid: 1, hostname: `build${TITLE}\r${hostname()}`, startedAt: '2026-01-01T00:00:00Z', runId: `r${OSC8}` }),
    );
    const r = await spawnCli(['push', '--resource', 'account', '--incremental', '--state-dir', stateDir, file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('build\\u001b]0;pwned\\u0007\\r');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  test("the sandbox's log line of a batch whose batchId and source hold escape sequences", async () => {
    const { child, result } = startCli(['sandbox', '--port', '0', '--api-key', KEY]);
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    let err = '';
    child.stderr!.on('data', (c) => (err += c));
    await until(() => /listening on (\S+)/.test(out));
    const url = /listening on (\S+)/.exec(out)![1]!;
    const res = await fetch(`${url}/v2/integration/account`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ batchId: `b-1${TITLE}`, source: `src\r${OSC8}`, items: [{ externalId: 'x', name: 'X', type: 'COMPANY' }] }),
    });
    expect(res.status).toBe(200);
    await until(() => err.includes('b-1'));
    child.kill('SIGTERM');
    const r = await result;
    expect(r.stderr).toContain('b-1\\u001b]0;pwned\\u0007');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
}
