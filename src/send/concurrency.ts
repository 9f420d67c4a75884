// At most `limit` tasks in flight; `run` waits for a free place, so a fast reader cannot queue
// a whole file's batches in memory. A task handles its own failure (records its rows' outcomes):
// the limiter only waits for it to settle.

export interface Limiter {
  run(task: () => Promise<void>): Promise<void>;
  /** Resolves when every task started so far has settled. */
  idle(): Promise<void>;
}

/** `limit` may change while tasks run (read at each start): the client's adaptive limit, for one. */
export function createLimiter(limit: number | (() => number)): Limiter {
  const inFlight = new Set<Promise<void>>();
  const current = typeof limit === 'number' ? () => limit : limit;
  return {
    async run(task) {
      while (inFlight.size >= current()) await Promise.race(inFlight);
      // what waits in the race is the task's settling, never its error: a task that failed (a 401)
      // once made the next run() throw before its task started, and that batch's rows got no outcome
      const p: Promise<void> = task()
        .catch(() => undefined)
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
