// Too many open files. Node's ES module loader opens every file of a static import graph at once,
// and zod's graph alone is ~100 files (each of its entry points re-exports its 64 locales), so
// batch-sync needs about 110 open files for a moment at start-up; below that the loader fails with
// EMFILE. Later, each connection of the pool is one more. This module imports nothing, so the entry
// point can load it and explain such a failure even when the rest of the CLI could not be loaded.
import { readFileSync } from 'node:fs';

const CODES = new Set(['EMFILE', 'ENFILE']);

/**
 * Below this soft limit batch-sync refuses to start: start-up itself needs nearly this many, for
 * validate and push alike, so this leaves a margin. Checked before loading, because a load that runs out of
 * descriptors does not always say EMFILE: a failed open during module resolution is sometimes
 * reported as "Cannot find package".
 */
export const MIN_OPEN_FILES = 128;

/** EMFILE (this process's limit) or ENFILE (the system's), on the error or anywhere in its causes. */
export function fdLimitCode(error: unknown): 'EMFILE' | 'ENFILE' | undefined {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CODES.has(code)) return code as 'EMFILE' | 'ENFILE';
  }
  return undefined;
}

let known: number | undefined;

/**
 * The soft limit on open files (`ulimit -n`), where the system says (Linux /proc). Kept from the
 * first read (the CLI's start): after an EMFILE there is no descriptor left to read /proc with.
 */
export function openFileLimit(): number | undefined {
  if (known !== undefined) return known;
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'latin1'));
    known = m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
  return known;
}

/** The one-line refusal when the limit is known to be too low to start, else undefined. */
export function startupLimitMessage(limit = openFileLimit()): string | undefined {
  if (limit === undefined || limit >= MIN_OPEN_FILES) return undefined;
  return `the open-file limit is ${limit} (ulimit -n), and batch-sync opens about 110 files at once while starting: raise it to at least ${MIN_OPEN_FILES}, e.g. \`ulimit -n 1024\`, and run again`;
}

/**
 * One line for the user, or undefined when the error is not about open files. `limit` read before
 * the failure: right after an EMFILE there may be no file descriptor left to read /proc with.
 */
export function fdLimitMessage(error: unknown, when: string, limit = openFileLimit()): string | undefined {
  const code = fdLimitCode(error);
  if (!code) return undefined;
  if (code === 'ENFILE') return `the system's table of open files is full (ENFILE) ${when}; close other programs or raise fs.file-max, and run again`;
  const what = limit === undefined ? 'the open-file limit is too low (ulimit -n)' : `the limit is ${limit} open files (ulimit -n)`;
  return `too many open files (EMFILE) ${when}: ${what}; raise it, e.g. \`ulimit -n 1024\`, and run again`;
}
