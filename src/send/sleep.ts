// A wait that a cancelled run does not sit through.

/** Resolves true after `ms`, or false as soon as any of `signals` aborts. Leaves no listener behind. */
export function sleep(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<boolean> {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((s) => s.aborted)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (slept: boolean) => {
      clearTimeout(timer);
      for (const s of live) s.removeEventListener('abort', onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    for (const s of live) s.addEventListener('abort', onAbort, { once: true });
  });
}
