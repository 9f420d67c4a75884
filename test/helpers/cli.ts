// Runs the CLI as a user would: in-process through main() (fast, same code as bin/), or as a real
// child process of bin/batch-sync.js (exit codes, signals, what reaches the terminal).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../src/main.js';
import { githubActions, invocation } from '../../src/config/environment.js';
import { memoryOutput } from '../../src/report/output.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The signal that ended the process, when one did (startCli, spawnCli). */
  signal?: NodeJS.Signals | null;
}

export const BIN = resolve(__dirname, '../../bin/batch-sync.js');

/** How the spawned CLI names itself in the commands it prints, run from `cwd` (the forms: test/e2e/invoked-as.test.ts). */
export const cliFrom = (cwd: string) => invocation({}, BIN, cwd);

/** In-process run with the given environment variables set for its duration. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    // as main() decides for the console: the same guard under GitHub Actions
    const output = memoryOutput({ githubActions: githubActions() });
    const code = await main(['node', 'batch-sync', ...args], output);
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Shell commands run before the CLI, in the same process (e.g. `ulimit -f 128`). */
  shellPrefix?: string;
  /** A command the CLI runs under (e.g. `strace` and its options): it is given node and the CLI's arguments. */
  under?: string[];
}

/** The built CLI as a child process the test can signal; `result` settles when it exits. */
export function startCli(args: string[], options: StartOptions = {}): { child: ChildProcess; result: Promise<CliResult> } {
  const argv = [...(options.under ?? []), process.execPath, BIN, ...args];
  const [command, ...rest] = options.shellPrefix ? ['bash', '-c', `${options.shellPrefix}; exec "$0" "$@"`, ...argv] : argv;
  const child = spawn(command!, rest, {
    cwd: options.cwd,
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const result = new Promise<CliResult>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code: code ?? (signal ? 128 : -1), signal, stdout, stderr }));
  });
  return { child, result };
}

/** The built CLI run to its end (run `npm run build` first; `npm test` does). */
export async function spawnCli(args: string[], options: StartOptions & { timeoutMs?: number } = {}): Promise<CliResult> {
  const { child, result } = startCli(args, options);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  try {
    return await result;
  } finally {
    clearTimeout(timer);
  }
}

/** A fresh temp directory with the given files written into it. */
export function tempFiles(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'batch-sync-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

export const SALES_PROFILES_CSV = [
  'externalId,email,profile.firstName,profile.lastName',
  'ana,ana@example.com,Ana,Souza',
  'bruno,bruno@example.com,Bruno,Díaz',
].join('\n');

export function dealsCsv(count: number, opts: { owner?: (i: number) => string; currency?: (i: number) => string } = {}): string {
  const lines = ['externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency'];
  for (let i = 1; i <= count; i++) {
    const owner = opts.owner?.(i) ?? (i % 2 ? 'ana' : 'bruno');
    lines.push(`D-${i},Deal ${i},${owner},${owner},${i % 3 === 0},${i}.50,${opts.currency?.(i) ?? 'USD'}`);
  }
  return lines.join('\n');
}
