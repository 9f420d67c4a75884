// Issue 26 item 5: every command's --help ends with two or three real examples under `Examples:`,
// and every one of them runs. Each example is read from the built CLI's help and run as a user
// pastes it, by a shell, from a temporary copy of the checkout's fixtures (what the examples write
// lands there), with an API behind it: the embedded sandbox, its address and key in
// BATCH_SYNC_BASE_URL / BATCH_SYNC_API_KEY and in ~/.batch-sync-key (HOME is the copy). The commands
// run in the order below, so that `history` finds the runs the `push` examples archived. A long-running
// `sandbox` example is started, must answer on the address it prints, and must stop cleanly on Ctrl+C.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const COMMANDS = ['validate', 'push', 'history', 'report', 'init', 'inspect', 'schema', 'sandbox', 'completion'] as const;
const KEY = 'help-examples-key';

/** The example lines that end a help text: `  batch-sync …` under a last `Examples:` heading. */
function examplesOf(help: string): string[] {
  const [before, after] = [help.slice(0, help.lastIndexOf('\nExamples:\n')), help.slice(help.lastIndexOf('\nExamples:\n') + 11)];
  expect(before.length, 'an Examples: heading').toBeGreaterThan(0);
  const lines = after.trimEnd().split('\n');
  for (const line of lines) expect(line, 'each example a command line, indented two spaces').toMatch(/^ {2}batch-sync \S/);
  return lines.map((l) => l.trim());
}

let dir: string;
let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'help-examples-'));
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  // `batch-sync` on PATH is this build, as after `npm install -g` or `npm link` (a link to bin/): run
  // by that name, its help prints its examples as `batch-sync …`, the way they are run here
  symlinkSync(BIN, join(dir, 'batch-sync'));
  writeFileSync(join(dir, '.batch-sync-key'), KEY, { mode: 0o600 });
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  env = {
    PATH: `${dir}:${process.env.PATH}`,
    HOME: dir,
    BATCH_SYNC_BASE_URL: sandbox.url,
    BATCH_SYNC_API_KEY: KEY,
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
});
afterAll(async () => {
  await sandbox?.close();
});

describe('every --help ends with examples that run', () => {
  test.each(COMMANDS)('%s --help: 2 or 3 examples, the last thing it prints', async (command) => {
    const help = await shell(`batch-sync ${command} --help`);
    expect(help.code).toBe(0);
    const examples = examplesOf(help.stdout);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.length).toBeLessThanOrEqual(3);
    for (const line of examples) expect(line.split(/\s+/)[1], line).toBe(command);
  });

  test.each(COMMANDS)(
    'batch-sync %s: each example of its --help runs and exits 0',
    async (command) => {
      const help = await shell(`batch-sync ${command} --help`);
      for (const line of examplesOf(help.stdout)) {
        if (command === 'sandbox') await runsUntilStopped(line);
        else {
          const run = await shell(line);
          expect(run.code, `${line}\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBe(0);
          expect(run.stderr, line).not.toMatch(/^error:/m);
        }
      }
    },
    240_000,
  );
});

/** The line run by a shell, without blocking this process (the sandbox answering it lives here). */
function shell(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', line], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** A sandbox example: it must listen where it says, answer there, and exit 0 on Ctrl+C (SIGINT). */
async function runsUntilStopped(line: string): Promise<void> {
  const child = spawn('sh', ['-c', `exec ${line}`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  try {
    const started = Date.now();
    while (!/^API key: \S+/m.test(out) && Date.now() - started < 20_000 && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    expect(url, `${line}\n${out}`).toBeDefined();
    // the inspection endpoints take the key the sandbox printed, as its API does
    const key = /^API key: (\S+)/m.exec(out)?.[1] ?? '';
    const stats = await fetch(`${url}/_sandbox/stats`, { headers: { 'x-api-key': key } });
    expect(stats.status, line).toBe(200);
  } finally {
    child.kill('SIGINT');
  }
  expect(await exited, `${line}\n${out}`).toBe(0);
}
