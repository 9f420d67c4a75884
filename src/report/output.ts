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

export function consoleOutput(): Output {
  const plain = process.env.TERM === 'dumb' && !process.env.FORCE_COLOR;
  const color = new Chalk(plain ? { level: 0 } : {});
  const safe = (text: string) => terminalSafe(redact(text.endsWith('\n') ? text : `${text}\n`), color.level > 0);
  return {
    out: (text) => process.stdout.write(safe(text)),
    err: (text) => process.stderr.write(safe(text)),
    color,
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
    out: (t) => void stdout.push(terminalSafe(redact(t), false)),
    err: (t) => void stderr.push(terminalSafe(redact(t), false)),
    color: new Chalk({ level: 0 }),
    stderrIsTTY: false,
  };
}
