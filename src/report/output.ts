// Where the CLI writes: stdout for results, stderr for progress and errors. Every line passes
// through the redactor so the API key cannot leak, whatever produced the text.
import { Chalk, type ChalkInstance } from 'chalk';
import { redact } from '../redact.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Colours for stderr; plain when NO_COLOR, TERM=dumb, CI or a non-TTY say so (chalk's own detection). */
  color: ChalkInstance;
  stderrIsTTY: boolean;
  /** The raw stderr stream, for the progress spinner (which must redraw in place). Absent in memory outputs. */
  stderrStream?: NodeJS.WritableStream;
}

export function consoleOutput(): Output {
  const plain = process.env.TERM === 'dumb' && !process.env.FORCE_COLOR;
  return {
    out: (text) => process.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`)),
    err: (text) => process.stderr.write(redact(text.endsWith('\n') ? text : `${text}\n`)),
    color: new Chalk(plain ? { level: 0 } : {}),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stderrStream: process.stderr,
  };
}

/** Collects output in memory: used by tests of renderers and by `--format json` wrappers. */
export function memoryOutput(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => void stdout.push(redact(t)),
    err: (t) => void stderr.push(redact(t)),
    color: new Chalk({ level: 0 }),
    stderrIsTTY: false,
  };
}
