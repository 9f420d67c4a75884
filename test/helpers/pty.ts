// The built CLI on a real pseudo-terminal, through util-linux `script` (in every Debian base image,
// unlike python3). With stdin not a terminal, `script` gives its pty no size; `stty cols 0 rows 0`
// makes that explicit: the terminal reports 0 columns, as under `script` in cron or a bare pty.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

export interface PtyRun {
  child: ChildProcess;
  /** The CLI's own pid (the shell inside `script` execs it), for signals aimed at it alone. */
  pid: Promise<number>;
  /** Everything the terminal received (stdout and stderr share it), as it arrived. */
  output(): string;
  /** True once `script` has exited. */
  exited(): boolean;
  /** Settles when `script` exits; `code` is the CLI's exit code (`script -e`), 128+n for signal n. */
  result: Promise<{ code: number; output: string }>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function startCliOnPty(args: string[], opts: { env?: Record<string, string>; cols?: number; rows?: number; killAfterMs?: number } = {}): PtyRun {
  const size = `stty cols ${opts.cols ?? 0} rows ${opts.rows ?? 0}`;
  const command = `${size}; echo "PID=$$"; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  // a variable given as undefined is left out (Node 20 would pass the text "undefined")
  const env = Object.fromEntries(Object.entries({ ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...opts.env }).filter(([, v]) => v !== undefined));
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  let gotPid: (pid: number) => void;
  const pid = new Promise<number>((resolve) => (gotPid = resolve));
  child.stdout!.on('data', (c) => {
    output += c;
    const m = /PID=(\d+)/.exec(output);
    if (m) gotPid(Number(m[1]));
  });
  child.stderr!.on('data', (c) => (output += c));
  // the bound: a hang ends as SIGKILL (exit 137), which no test expects
  const timer = setTimeout(() => pid.then((p) => process.kill(p, 'SIGKILL')).catch(() => {}), opts.killAfterMs ?? 15_000);
  const result = new Promise<{ code: number; output: string }>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      exited = true;
      done({ code: code ?? -1, output });
    });
  });
  return { child, pid, output: () => output, exited: () => exited, result };
}
