// Ctrl-C and SIGTERM during a push: the first stops taking new batches and gives those in flight a
// bounded grace period; a second one (or the end of the grace) cancels them. The run then writes
// its report and exits non-zero.
//
// The process that started batch-sync ending counts as the first signal: `npx`, `npm exec` and a
// shell that is not `exec`-ing it end on a SIGTERM without passing it on (docs/nightly.md), and an
// orphaned push would otherwise run on, holding the lock, after its caller has gone.

export interface InterruptSignals {
  /** Aborted at the first signal: no new batches. */
  stop: AbortSignal;
  /** Aborted after the grace period or a second signal: requests in flight are cancelled. */
  cancel: AbortSignal;
  dispose(): void;
}

const GRACE_MS = 10_000;
/** How often the parent is looked at: a change of parent process id means it has ended. */
const PARENT_POLL_MS = 250;

export function interruptSignals(say: (text: string) => void, graceMs = GRACE_MS): InterruptSignals {
  const stop = new AbortController();
  const cancel = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onStop = (why: string) => {
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
  const onSignal = (name: NodeJS.Signals) => onStop(name);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    onStop(`the process that started batch-sync (pid ${parent}) has ended`);
  }, PARENT_POLL_MS);
  watch.unref();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    cancel: cancel.signal,
    dispose() {
      clearTimeout(timer);
      clearInterval(watch);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
