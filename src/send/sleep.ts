// A wait that a cancelled run does not sit through.
import { onAbort } from './abort-fanout.js';

/** Resolves true after `ms`, or false as soon as any of `signals` aborts. Leaves no listener behind. */
export function sleep(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<boolean> {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((s) => s.aborted)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (slept: boolean) => {
      clearTimeout(timer);
      for (const off of unlink) off();
      resolve(slept);
    };
    const timer = setTimeout(() => done(true), ms);
    // through abort-fanout: a hundred batches asleep before their retry add no listener each
    const unlink = live.map((s) => onAbort(s, () => done(false)));
  });
}
