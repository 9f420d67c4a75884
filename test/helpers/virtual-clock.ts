// Virtual time for the flow control's pure parts (send/flow-control.ts takes `now` and `sleep`): a
// clock that only moves when every promise has settled, and timers that fire in time order. A
// simulated minute takes milliseconds, so a test can play a push against a rate limit over many
// seeds without sleeping, and nothing in it depends on how loaded the machine is.

interface Timer {
  at: number;
  seq: number;
  fire(): void;
}

export class VirtualClock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];
  /** Every delay a sleeper asked for, in ms (a test checks none is absurd). */
  readonly asked: number[] = [];

  /** How late (or, negative, early) a timer fires: as a loaded event loop does. */
  constructor(private readonly lateness: () => number = () => 0) {}

  readonly now = (): number => this.t;

  /** Runs `fire` `ms` from now (exactly: no lateness). */
  at(ms: number, fire: () => void): void {
    this.timers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, fire });
  }

  /** The same contract as src/send/sleep.ts: true after `ms`, false as soon as a signal aborts. */
  readonly sleep = (ms: number, ...signals: (AbortSignal | undefined)[]): Promise<boolean> => {
    this.asked.push(ms);
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    if (live.some((s) => s.aborted)) return Promise.resolve(false);
    return new Promise((resolve) => {
      let done = false;
      const finish = (slept: boolean) => {
        if (done) return;
        done = true;
        for (const s of live) s.removeEventListener('abort', onAbort);
        resolve(slept);
      };
      const onAbort = () => finish(false);
      for (const s of live) s.addEventListener('abort', onAbort, { once: true });
      // as a Node timer: never sooner than 1 ms, however early the loop's clock lets it fire
      this.at(Math.max(1, ms + this.lateness()), () => finish(true));
    });
  };

  /** Lets every pending promise settle, then fires timers in time order until none is left or `until` is reached. */
  async run(until = Number.POSITIVE_INFINITY): Promise<void> {
    for (;;) {
      await settle();
      if (this.timers.length === 0) return;
      let next = 0;
      for (let i = 1; i < this.timers.length; i++) {
        const a = this.timers[i]!;
        const b = this.timers[next]!;
        if (a.at < b.at || (a.at === b.at && a.seq < b.seq)) next = i;
      }
      const timer = this.timers[next]!;
      if (timer.at > until) return;
      this.timers.splice(next, 1);
      this.t = Math.max(this.t, timer.at);
      timer.fire();
    }
  }
}

/** Every microtask queued so far, and those they queue, run before a macrotask. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
