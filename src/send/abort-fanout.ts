// One listener per run-wide signal, however many requests wait on it. Every attempt in flight and
// every retry asleep must end when the run is cancelled; each adding its own listener to the run's
// one AbortSignal put 11 on it at --concurrency 11, and Node warned of a leak
// (MaxListenersExceededWarning). Here the signal gets a single listener that calls the waiters.

const waiters = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `fn` when `signal` aborts (not if it already has: check `aborted` first); returns the unsubscribe. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let set = waiters.get(signal);
  if (!set) {
    const fns = new Set<() => void>();
    set = fns;
    waiters.set(signal, fns);
    signal.addEventListener(
      'abort',
      () => {
        const now = [...fns];
        fns.clear();
        for (const f of now) f();
      },
      { once: true },
    );
  }
  const mine = set;
  mine.add(fn);
  return () => void mine.delete(fn);
}
