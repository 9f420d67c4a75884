// Issue 28 items 1 and 2: an output whose target exists and is not a regular file. Each output was
// written to a temp file renamed over its target, so `--junit /dev/null` as root replaced /dev/null
// with a regular file; `--emit` onto a FIFO nobody reads blocked for ever; `--errors /dev/null` said
// `EEXIST … mkdir`; $GITHUB_STEP_SUMMARY was appended to whatever it named, an input included.
// Never /dev/null itself: a symlink to it (whose target must stay a character device and the link a
// link) or, as root, a character device of our own made with mknod (c 1 3, the same device). The
// built CLI is spawned with a watchdog: a hang ends as a SIGKILL and fails the `signal` assertion.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { dealsCsv, spawnCli, tempFiles, type CliResult } from '../helpers/cli.js';
import { expectCleanStderr } from './bad-input-checks.js';

const root = process.getuid?.() === 0;
const endedAlone = (r: CliResult) => expect(r.signal ?? null, `ended on its own: ${r.stderr}`).toBeNull();

/** 5 deals, 2 with a currency that is not one: validate exits 1 and has an errors CSV to write. */
function deals(): { dir: string; file: string } {
  const dir = tempFiles({ 'deals.csv': dealsCsv(5, { currency: (i) => (i % 2 ? 'USD' : 'USX') }) });
  return { dir, file: join(dir, 'deals.csv') };
}

/** A character device the test owns: a symlink to /dev/null, or as root a node of its own (c 1 3). */
function charDevices(dir: string): [string, string][] {
  symlinkSync('/dev/null', join(dir, 'null-link'));
  const out: [string, string][] = [['a symlink to /dev/null', join(dir, 'null-link')]];
  if (root) {
    execFileSync('mknod', [join(dir, 'own-null'), 'c', '1', '3']);
    out.push(['a character device of its own (mknod c 1 3)', join(dir, 'own-null')]);
  }
  return out;
}

function expectStillDevice(path: string): void {
  expect(statSync(path).isCharacterDevice(), `${path} is still a character device`).toBe(true);
  if (path.endsWith('null-link')) expect(readlinkSync(path)).toBe('/dev/null');
  expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
}

/** A FIFO with a reader (cat) collecting what comes through it. */
function readFifo(path: string): Promise<string> {
  execFileSync('mkfifo', [path]);
  const cat = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  cat.stdout.on('data', (c) => (text += c));
  return new Promise((done) => cat.on('close', () => done(text)));
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

test.each(['--junit', '--emit', '--errors'])(
  '%s onto a character device writes through it: the device stays a device, exit 1 as the rows say',
  async (flag) => {
    const { dir, file } = deals();
    for (const [what, target] of charDevices(dir)) {
      const r = await spawnCli(['validate', '--resource', 'deal', flag, target, file], { timeoutMs: 30_000 });
      endedAlone(r);
      expectCleanStderr(r.stderr);
      expect(r.stderr, what).not.toMatch(/^error:/m);
      expect(r.code, `${what}: ${r.stderr}`).toBe(1);
      expectStillDevice(target);
    }
    // no temp file left beside the target
    expect(
      execFileSync('ls', ['-A', dir], { encoding: 'utf8' })
        .split('\n')
        .filter((n) => n.endsWith('.tmp')),
    ).toEqual([]);
  },
);

test.each(['--junit', '--emit', '--errors'])('%s onto a FIFO with a reader: the output goes through it, the FIFO stays one', async (flag) => {
  const { dir, file } = deals();
  const fifo = join(dir, 'out.fifo');
  const received = readFifo(fifo);
  const r = await spawnCli(['validate', '--resource', 'deal', flag, fifo, file], { timeoutMs: 30_000 });
  endedAlone(r);
  expect(r.code, r.stderr).toBe(1);
  expect(lstatSync(fifo).isFIFO()).toBe(true);
  const text = await received;
  const expected = { '--junit': /^<\?xml [\s\S]*<testsuites[\s\S]*USX/, '--emit': /"batchId":.*"D-1"/, '--errors': /^\uFEFFexternalId,[\s\S]*D-2,[\s\S]*USX/ }[
    flag
  ]!;
  expect(text).toMatch(expected);
});

test.each(['--junit', '--emit', '--errors'])('%s onto a FIFO nobody reads: exit 2 at once, one line naming it, never a hang', async (flag) => {
  const { dir, file } = deals();
  const fifo = join(dir, 'out.fifo');
  execFileSync('mkfifo', [fifo]);
  const r = await spawnCli(['validate', '--resource', 'deal', flag, fifo, file], { timeoutMs: 20_000 });
  endedAlone(r);
  expectCleanStderr(r.stderr);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`^error: cannot write .*${fifo.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: no process reads the FIFO \\(ENXIO\\)$`, 'm'));
  expect(lstatSync(fifo).isFIFO()).toBe(true);
});

test.each(['--junit', '--emit', '--errors'])('%s onto a socket: refused, one line saying what it is, the socket left', async (flag) => {
  const { dir, file } = deals();
  const sock = join(dir, 'out.sock');
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(sock, done));
  const r = await spawnCli(['validate', '--resource', 'deal', flag, sock, file], { timeoutMs: 20_000 });
  endedAlone(r);
  expectCleanStderr(r.stderr);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^error: cannot write .*out\.sock: it is a socket, not a regular file$/m);
  expect(lstatSync(sock).isSocket()).toBe(true);
});

// item 2: the step summary follows the same rules, each failure a warning that leaves the exit code
describe('$GITHUB_STEP_SUMMARY', () => {
  const run = (summary: string, file: string) =>
    spawnCli(['validate', '--resource', 'deal', '--format', 'github', file], { env: { GITHUB_STEP_SUMMARY: summary }, timeoutMs: 20_000 });

  test('naming an input of the run: the input is left as it was, a warning, the exit code of the rows', async () => {
    const { file } = deals();
    const before = readFileSync(file);
    const r = await run(file, file);
    endedAlone(r);
    expect(r.code).toBe(1);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(r.stderr).toContain(`warning: not appending the step summary to $GITHUB_STEP_SUMMARY (${file}): it is an input of this run`);
  });

  test('a FIFO nobody reads: a warning at once, never a hang; with a reader the summary goes through', async () => {
    const { dir, file } = deals();
    const fifo = join(dir, 'summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await run(fifo, file);
    endedAlone(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`warning: cannot append the step summary to $GITHUB_STEP_SUMMARY (${fifo}): no process reads the FIFO (ENXIO)`);
    const other = join(dir, 'read.fifo');
    const received = readFifo(other);
    const ok = await run(other, file);
    endedAlone(ok);
    expect(ok.code).toBe(1);
    expect(await received).toMatch(/^### batch-sync validate: 2 rows not valid/);
  });

  test.runIf(existsSync('/dev/full'))('/dev/full: a warning saying the disk is full, the exit code unchanged', async () => {
    const { file } = deals();
    const r = await run('/dev/full', file);
    endedAlone(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('warning: cannot append the step summary to $GITHUB_STEP_SUMMARY (/dev/full): the disk is full (ENOSPC)');
  });

  test('a directory, a character device: a warning, or written through; the device stays one', async () => {
    const { dir, file } = deals();
    mkdirSync(join(dir, 'summary-dir'));
    const r = await run(join(dir, 'summary-dir'), file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/warning: cannot append the step summary to \$GITHUB_STEP_SUMMARY \(.*summary-dir\): a directory has that name/);
    for (const [, device] of charDevices(dir)) {
      const d = await run(device, file);
      expect(d.code).toBe(1);
      expect(d.stderr).not.toMatch(/step summary/);
      expectStillDevice(device);
    }
  });
});
