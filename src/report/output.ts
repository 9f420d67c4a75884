// Where the CLI writes: stdout for results, stderr for progress and errors. Every line passes
// through the redactor so the API key cannot leak, whatever produced the text, and through the
// terminal guard so no control character in it acts on the terminal or the log; under GitHub
// Actions also through the workflow-command guard, so no data in it acts on the runner.
import { Chalk, type ChalkInstance } from 'chalk';
import { redact } from '../redact.js';
import { terminalSafe } from './terminal-text.js';
import { inertWorkflowText } from './workflow-guard.js';

/** `workflow-command`: a GitHub workflow command of the tool's own (render-github.ts), written as it is. */
type Written = 'workflow-command';

export interface Output {
  out(text: string, as?: Written): void;
  err(text: string, as?: Written): void;
  /** Colours for stderr; plain when NO_COLOR, TERM=dumb, CI or a non-TTY say so (chalk's own detection). */
  color: ChalkInstance;
  stderrIsTTY: boolean;
  /** The raw stderr stream, for the progress spinner (which must redraw in place). Absent in memory outputs. */
  stderrStream?: NodeJS.WritableStream;
  /** The terminal's width when stdout is one that reports it: report lines fitted to a width take it, else 80. */
  stdoutColumns?: number;
}

export interface OutputOptions {
  /** No colour whatever chalk detects (`TERM=dumb` without `FORCE_COLOR`, decided in config/environment.ts). */
  plain?: boolean;
  /** GITHUB_ACTIONS=true: every line but the tool's own workflow commands made inert for the runner. */
  githubActions?: boolean;
}

/** The last steps of every line written: the key masked, controls escaped, and under GitHub Actions no workflow command. */
function finisher(colors: boolean, githubActions: boolean | undefined) {
  return (text: string, as?: Written) => {
    const safe = terminalSafe(redact(text), colors);
    return githubActions && as !== 'workflow-command' ? inertWorkflowText(safe) : safe;
  };
}

export function consoleOutput({ plain = false, githubActions }: OutputOptions = {}): Output {
  const color = new Chalk(plain ? { level: 0 } : {});
  const finish = finisher(color.level > 0, githubActions);
  const safe = (text: string, as?: Written) => finish(text.endsWith('\n') ? text : `${text}\n`, as);
  const stdoutOpen = keepRunningWhenClosed(process.stdout);
  const stderrOpen = keepRunningWhenClosed(process.stderr);
  return {
    out: (text, as) => void (stdoutOpen() && process.stdout.write(safe(text, as))),
    err: (text, as) => void (stderrOpen() && process.stderr.write(safe(text, as))),
    color,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stderrStream: process.stderr,
    // a terminal nobody sized reports 0 columns: no width then
    stdoutColumns: process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined,
  };
}

const closedStreams = new WeakSet<NodeJS.WritableStream>();
const guardedStreams = new WeakSet<NodeJS.WritableStream>();

/**
 * A reader that goes away (`| head -c 100`, a closed terminal) makes the next write fail with
 * EPIPE, which Node throws as an unhandled 'error' event: a raw stack and exit 1 in place of the
 * run's own code. Such a stream is only marked closed; later lines to it are dropped and the run
 * ends with its exit code (a push is not cut short by its reader leaving). Returns "still open?".
 */
function keepRunningWhenClosed(stream: NodeJS.WritableStream): () => boolean {
  if (!guardedStreams.has(stream)) {
    guardedStreams.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
      closedStreams.add(stream);
    });
  }
  return () => !closedStreams.has(stream);
}

/** Collects output in memory: used by tests of renderers and by `--format json` wrappers. */
export function memoryOutput({ githubActions }: Pick<OutputOptions, 'githubActions'> = {}): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const finish = finisher(false, githubActions);
  return {
    stdout,
    stderr,
    out: (t, as) => void stdout.push(finish(t, as)),
    err: (t, as) => void stderr.push(finish(t, as)),
    color: new Chalk({ level: 0 }),
    stderrIsTTY: false,
  };
}
