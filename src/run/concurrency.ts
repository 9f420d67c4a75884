// At most `limit` tasks in flight; `run` waits for a free place, so a fast reader cannot queue
// a whole file's batches in memory.

export interface Limiter {
  run(task: () => Promise<void>): Promise<void>;
  /** Resolves when every task started so far has settled. */
  idle(): Promise<void>;
}

export function createLimiter(limit: number): Limiter {
  const inFlight = new Set<Promise<void>>();
  return {
    async run(task) {
      while (inFlight.size >= limit) await Promise.race(inFlight);
      const p = task().finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
