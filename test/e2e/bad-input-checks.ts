// What every error a user sees must be: one line saying where and what, and never a stack trace
// or an "internal error" (which would mean a bad input crashed us instead of being reported).
import { expect } from 'vitest';

export function expectCleanStderr(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('internal error');
  expect(stderr).not.toMatch(/\b(TypeError|RangeError|SyntaxError|ReferenceError)\b/);
}

/** The single `error:` line of stderr, which must start (after `error: `) with `where`. */
export function expectOneLineError(stderr: string, where: string): string {
  const errors = stderr.split('\n').filter((l) => l.startsWith('error:'));
  expect(errors, stderr).toHaveLength(1);
  const line = errors[0]!.slice('error: '.length);
  expect(line.startsWith(where), `${line}\n  should start with\n${where}`).toBe(true);
  return line;
}
