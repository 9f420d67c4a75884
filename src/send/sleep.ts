// A wait that a cancelled run does not sit through.
import { onAbort } from './abort-fanout.js';

/**
 * The longest delay a Node timer takes: a longer one fires after 1 ms, with a TimeoutOverflowWarning
 * (a wait re-armed in a loop then spins and floods the log). Longer waits are slept in pieces.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Resolves true after `ms`, or false as soon as any of `signals` aborts. Leaves no listener behind. */
export function sleep(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<boolean> {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((s) => s.aborted)) return Promise.resolve(false);
  const until = Date.now() + (Number.isNaN(ms) ? 0 : ms);
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (slept: boolean) => {
      clearTimeout(timer);
      for (const off of unlink) off();
      resolve(slept);
    };
    const arm = (left: number) => {
      timer = setTimeout(() => (left > LONGEST_TIMER_MS ? arm(until - Date.now()) : done(true)), Math.min(Math.max(0, left), LONGEST_TIMER_MS));
    };
    arm(until - Date.now());
    // through abort-fanout: a hundred batches asleep before their retry add no listener each
    const unlink = live.map((s) => onAbort(s, () => done(false)));
  });
}
