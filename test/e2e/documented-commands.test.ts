// Every command README.md and docs/*.md show runs here, as a user would paste it, and fails the
// suite when it or the output it quotes drifts. The convention (test/helpers/doc-blocks.ts, and
// ARCHITECTURE.md "Documented commands are tests"):
//
//   ```sh                  run, each command line in order   `# exit N` after a command: its exit code (else 0)
//   ```sh server           runs until stopped (the sandbox)   started in the background, `--port N` made a free port
//   ```<lang> not-run: WHY not run, for the reason given     counted (a crontab, a workflow, the real API, npm install -g)
//   ```text output         the previous command's output     every line must appear in what it printed
//   ```<lang> file=PATH    a file the reader is shown         written into the working folder at that point
//   In `FILE`, replace `A` with `B`                          an edit the reader makes, made by the test
//
// Each document runs in its own temporary folder holding a copy of fixtures/, so commands that write
// profiles, plans, errors CSVs or state change nothing in the repository. Commands are written
// `./bin/batch-sync.js …`, as in a clone (README.md says why not npx): the folder's bin/ is a link to
// the checkout's, so it runs the built CLI. `npx batch-sync` is the built bin/ too (an `npx` first on
// PATH hands `batch-sync` to it and anything else to the real npx), for a guide that shows it.
// Quoted output is compared after normalising what differs from run to run: run ids, times and
// durations, latencies and concurrency, the working folder (shown as ~/batch-sync) and the sandbox's
// port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { brokenLinks, type Doc, docFiles, readDoc, ROOT, type Step } from '../helpers/doc-blocks.js';

const COMMAND_TIMEOUT_MS = 120_000;
const docs = docFiles().map((f) => readDoc(f));

const shims = mkdtempSync(join(tmpdir(), 'batch-sync-npx-'));
afterAll(() => rmSync(shims, { recursive: true, force: true }));
const realNpx = execFileSync('sh', ['-c', 'command -v npx || true'], { encoding: 'utf8' }).trim();
writeFileSync(
  join(shims, 'npx'),
  [
    '#!/bin/sh',
    '# npx batch-sync: this checkout\'s built CLI, as "npm ci" installs it; anything else: the real npx',
    `if [ "$1" = batch-sync ]; then shift; exec "${process.execPath}" "${BIN}" "$@"; fi`,
    `exec "${realNpx || 'npx-not-found'}" "$@"`,
    '',
  ].join('\n'),
);
chmodSync(join(shims, 'npx'), 0o755);

/** The environment a user's shell would have: none of the team's batch-sync or GitHub variables. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || (/^(BATCH_SYNC_|GITHUB_)/.test(k) && k !== 'BATCH_SYNC_ENGINE')) continue;
    env[k] ??= v;
  }
  env.PATH = `${shims}:${process.env.PATH ?? ''}`;
  return env;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, cwd: string, env: Record<string, string>): Promise<Ran> {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), COMMAND_TIMEOUT_MS);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** Run to run, these differ; the quoted output and what was printed are compared without them. */
function normalise(text: string, work: string): string {
  let out = text;
  for (const path of new Set([realpathSync(work), work])) out = out.replaceAll(path, '~/batch-sync');
  return out
    .replace(/\b\d{8}T\d{6}Z-[0-9a-f]{4}\b/g, '<run>')
    .replace(/\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?Z?/g, '<time>')
    .replace(/\b\d+(?:\.\d+)?s\b/g, '<n>s')
    .replace(/\b(p95 latency |up to |peak-concurrency=|concurrency )\d+/g, '$1<n>')
    .replace(/\b\d+ (ms|items\/s|rows\/s)\b/g, '<n> $1');
}

interface Server {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** A `sh server` command started with a free port; resolves to the URL it printed and the doc's URL. */
async function startServer(command: string, cwd: string, env: Record<string, string>): Promise<{ server: Server; from: string; to: string }> {
  const port = /--port (\d+)/.exec(command)?.[1];
  if (!port) throw new Error(`a server block names no --port: ${command}`);
  const child = spawn('sh', ['-c', `exec ${command.replace(`--port ${port}`, '--port 0')}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  let stdout = '';
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command}: no "sandbox listening on" line within 30 s`)), 30_000);
    child.stdout!.on('data', (c) => {
      stdout += c;
      const m = /^sandbox listening on (\S+)/m.exec(stdout);
      if (m) {
        clearTimeout(timer);
        done(m[1]!);
      }
    });
    child.on('close', () => fail(new Error(`${command} ended before listening: ${stdout}`)));
  });
  return { server: { child, exited }, from: `http://127.0.0.1:${port}`, to: url.replace(/\/$/, '') };
}

function applyEdit(step: Extract<Step, { kind: 'edit' }>, cwd: string): string | undefined {
  const file = join(cwd, step.path);
  if (!existsSync(file)) return `${step.doc}:${step.line}: the edit names ${step.path}, which is not there`;
  const text = readFileSync(file, 'utf8');
  if (step.atLine !== undefined && !text.split('\n')[step.atLine - 1]?.includes(step.from)) {
    return `${step.doc}:${step.line}: line ${step.atLine} of ${step.path} does not hold ${step.from}: ${text.split('\n')[step.atLine - 1]}`;
  }
  if (!text.includes(step.from)) return `${step.doc}:${step.line}: ${step.path} does not hold ${step.from}`;
  writeFileSync(file, text.replaceAll(step.from, step.to));
  return undefined;
}

function missingLines(step: Extract<Step, { kind: 'output' }>, ran: Ran, work: string, urls: Map<string, string>): string[] {
  let printed = `${ran.stdout}\n${ran.stderr}`;
  for (const [from, to] of urls) printed = printed.replaceAll(to, from);
  const lines = normalise(printed, work)
    .split('\n')
    .map((l) => l.trimEnd());
  return step.lines.map((l) => normalise(l, work).trimEnd()).filter((quoted) => !lines.some((l) => l.includes(quoted.trimStart())));
}

/** Runs a document's steps in order; returns what went wrong, one line each. */
async function runDoc(doc: Doc): Promise<{ failures: string[]; ran: number }> {
  const work = mkdtempSync(join(tmpdir(), 'batch-sync-doc-'));
  cpSync(join(ROOT, 'fixtures'), join(work, 'fixtures'), { recursive: true });
  symlinkSync(join(ROOT, 'bin'), join(work, 'bin'));
  const env = baseEnv();
  const urls = new Map<string, string>();
  const servers: Server[] = [];
  const failures: string[] = [];
  let cwd = work;
  let last: Ran | undefined;
  let ran = 0;
  try {
    for (const step of doc.steps) {
      const where = `${step.doc}:${step.line}`;
      if (step.kind === 'file') {
        mkdirSync(dirname(join(cwd, step.path)), { recursive: true });
        writeFileSync(join(cwd, step.path), step.text);
      } else if (step.kind === 'edit') {
        const failed = applyEdit(step, cwd);
        if (failed) failures.push(failed);
      } else if (step.kind === 'server') {
        const { server, from, to } = await startServer(step.command, cwd, env);
        servers.push(server);
        urls.set(from, to);
      } else if (step.kind === 'output') {
        const missing = last ? missingLines(step, last, work, urls) : ['(no command ran)'];
        for (const line of missing) failures.push(`${where}: quoted output not printed: ${line}`);
        if (missing.length && last) failures.push(`  it printed:\n${last.stdout}\n${last.stderr}`);
      } else {
        let command = step.command;
        for (const [from, to] of urls) command = command.replaceAll(from, to);
        const exported = /^export\s+(.*)$/.exec(command);
        const cd = /^cd\s+(\S+)$/.exec(command);
        if (exported) {
          for (const pair of exported[1]!.split(/\s+/)) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
          continue;
        }
        if (cd) {
          cwd = resolve(cwd, cd[1]!);
          continue;
        }
        ran++;
        last = await run(command, cwd, env);
        if (last.code !== step.exit)
          failures.push(`${where}: ${step.command}\n  exit ${last.code}, the document says ${step.exit}\n${last.stdout}\n${last.stderr}`);
      }
    }
  } finally {
    for (const s of servers) {
      s.child.kill('SIGINT');
      const code = await s.exited;
      if (code !== 0) failures.push(`${doc.path}: a server block's command ended with ${code} on Ctrl+C (SIGINT), not 0`);
    }
    rmSync(work, { recursive: true, force: true });
  }
  return { failures, ran };
}

const toRun = docs.filter((d) => d.steps.some((s) => s.kind === 'run'));
const counts = {
  run: docs.flatMap((d) => d.steps).filter((s) => (s.kind === 'run' && !/^(export|cd)\s/.test(s.command)) || s.kind === 'server').length,
  notRun: docs.flatMap((d) => d.notRun).reduce((n, b) => n + b.commands.length, 0),
  notRunBlocks: docs.flatMap((d) => d.notRun).length,
};

test(`README.md and docs/*.md: ${counts.run} commands run, ${counts.notRun} marked not run (in ${counts.notRunBlocks} blocks, each with its reason); every shell block marked, every command npx batch-sync`, () => {
  expect(docs.flatMap((d) => d.problems)).toEqual([]);
  expect(counts.run).toBeGreaterThan(0);
});

test('every link between README.md, docs/*.md, ARCHITECTURE.md and BENCHMARKS.md names a file and a heading that exist', () => {
  expect(brokenLinks()).toEqual([]);
});

test.concurrent.each(toRun.map((d) => [d.path, d] as const))(
  '%s: every command runs as written, with the exit code and output the document states',
  async (_path, doc) => {
    const { failures, ran } = await runDoc(doc);
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(0);
  },
  600_000,
);
