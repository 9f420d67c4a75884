// Where the CLI writes: stdout for results, stderr for progress and errors. Every line passes
// through the redactor so the API key cannot leak, whatever produced the text, and through the
// terminal guard so no control character in it acts on the terminal or the log.
import { Chalk, type ChalkInstance } from 'chalk';
import { redact } from '../redact.js';
import { terminalSafe } from './terminal-text.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Colours for stderr; plain when NO_COLOR, TERM=dumb, CI or a non-TTY say so (chalk's own detection). */
  color: ChalkInstance;
  stderrIsTTY: boolean;
  /** The raw stderr stream, for the progress spinner (which must redraw in place). Absent in memory outputs. */
  stderrStream?: NodeJS.WritableStream;
}

/** `plain`: no colour whatever chalk detects (`TERM=dumb` without `FORCE_COLOR`, decided in config/environment.ts). */
export function consoleOutput(plain = false): Output {
  const color = new Chalk(plain ? { level: 0 } : {});
  const safe = (text: string) => terminalSafe(redact(text.endsWith('\n') ? text : `${text}\n`), color.level > 0);
  const stdoutOpen = keepRunningWhenClosed(process.stdout);
  const stderrOpen = keepRunningWhenClosed(process.stderr);
  return {
    out: (text) => void (stdoutOpen() && process.stdout.write(safe(text))),
    err: (text) => void (stderrOpen() && process.stderr.write(safe(text))),
    color,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stderrStream: process.stderr,
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
export function memoryOutput(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => void stdout.push(terminalSafe(redact(t), false)),
    err: (t) => void stderr.push(terminalSafe(redact(t), false)),
    color: new Chalk({ level: 0 }),
    stderrIsTTY: false,
  };
}
