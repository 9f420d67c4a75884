// Ctrl-C and SIGTERM during a push: the first stops taking new batches and gives those in flight a
// bounded grace period; a second one (or the end of the grace) cancels them. The run then writes
// its report and exits non-zero.

export interface InterruptSignals {
  /** Aborted at the first signal: no new batches. */
  stop: AbortSignal;
  /** Aborted after the grace period or a second signal: requests in flight are cancelled. */
  cancel: AbortSignal;
  dispose(): void;
}

const GRACE_MS = 10_000;

export function interruptSignals(say: (text: string) => void, graceMs = GRACE_MS): InterruptSignals {
  const stop = new AbortController();
  const cancel = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    if (!stop.signal.aborted) {
      say(`${name}: taking no new batches; waiting up to ${graceMs / 1000} s for those in flight (again to cancel them)`);
      stop.abort();
      timer = setTimeout(() => cancel.abort(), graceMs);
      timer.unref();
    } else if (!cancel.signal.aborted) {
      say(`${name}: cancelling the batches in flight`);
      cancel.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    cancel: cancel.signal,
    dispose() {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
