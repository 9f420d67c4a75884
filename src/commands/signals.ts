// Ctrl-C and SIGTERM during a push: the first stops taking new batches and gives those in flight a
// bounded grace period; a second one (or the end of the grace) cancels them. The run then writes
// its report and exits non-zero.
// When the process that started batch-sync ends without passing its signal on (npx, npm exec),
// bin/batch-sync.js emits CALLER_ENDED: a first signal, never a second (one that came before it
// already stopped the run, and its batches in flight keep their grace).

export interface InterruptSignals {
  /** Aborted at the first signal: no new batches. */
  stop: AbortSignal;
  /** Aborted after the grace period or a second signal: requests in flight are cancelled. */
  cancel: AbortSignal;
  dispose(): void;
}

const GRACE_MS = 10_000;
/** The event bin/batch-sync.js emits on `process` when batch-sync's parent has ended. */
const CALLER_ENDED = 'batch-sync:caller-ended';

export function interruptSignals(say: (text: string) => void, graceMs = GRACE_MS): InterruptSignals {
  const stop = new AbortController();
  const cancel = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (why: string) => {
    if (!stop.signal.aborted) {
      say(`${why}: taking no new batches; waiting up to ${graceMs / 1000} s for those in flight (again to cancel them)`);
      stop.abort();
      timer = setTimeout(() => cancel.abort(), graceMs);
      timer.unref();
    } else if (!cancel.signal.aborted) {
      say(`${why}: cancelling the batches in flight`);
      cancel.abort();
    }
  };
  const onCallerEnded = (parent: number) => {
    if (!stop.signal.aborted) onSignal(`the process that started batch-sync (pid ${parent}) has ended`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on(CALLER_ENDED, onCallerEnded);
  return {
    stop: stop.signal,
    cancel: cancel.signal,
    dispose() {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off(CALLER_ENDED, onCallerEnded);
    },
  };
}

/** Resolves at the first Ctrl-C or SIGTERM: what serves until then (the sandbox, `push --keep-open`) then stops. */
export function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
