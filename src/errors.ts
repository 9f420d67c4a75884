// Typed errors, caught in exactly one place (main.ts), which maps them onto the exit-code contract:
// 0 all accepted (or valid), 1 some rows not accepted, 2 usage/config/input error before sending,
// 3 run aborted (auth, unreachable, retries exhausted), 4 another run holds the lock.

export const EXIT = { ok: 0, notAccepted: 1, usage: 2, aborted: 3, locked: 4, bug: 70 } as const;

export class BatchSyncError extends Error {
  readonly exitCode: number;
  readonly code: string;
  /** What the user can do about it, printed under the message. */
  readonly suggestion?: string;

  constructor(code: string, message: string, exitCode: number, opts: { suggestion?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.suggestion = opts.suggestion;
  }
}

/** A command line that cannot be carried out as written. */
export class UsageError extends BatchSyncError {
  constructor(message: string, opts: { suggestion?: string } = {}) {
    super('USAGE', message, EXIT.usage, opts);
  }
}

/** A profile, plan file or option value that is wrong. `where` names the file and field. */
export class ConfigError extends BatchSyncError {
  constructor(message: string, opts: { suggestion?: string; cause?: unknown } = {}) {
    super('CONFIG', message, EXIT.usage, opts);
  }
}

/** An input file that cannot be read at all (missing, not CSV, broken beyond one row). */
export class InputError extends BatchSyncError {
  constructor(message: string, opts: { suggestion?: string; cause?: unknown } = {}) {
    super('INPUT', message, EXIT.usage, opts);
  }
}

/** The run stopped: the API refused the key, could not be reached, or retries ran out. */
export class AbortError extends BatchSyncError {
  constructor(code: string, message: string, opts: { suggestion?: string; cause?: unknown } = {}) {
    super(code, message, EXIT.aborted, opts);
  }
}

/** Another run holds the state directory. */
export class LockedError extends BatchSyncError {
  constructor(message: string, opts: { suggestion?: string } = {}) {
    super('LOCKED', message, EXIT.locked, opts);
  }
}

/** A thrown value's message: an Error's own, anything else as text. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
