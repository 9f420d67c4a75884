// A push played in virtual time against a model of a server: the run's one FlowControl (the real
// one, src/send/flow-control.ts) decides when each request leaves; the model decides when the
// server counts it (one-way delay and its jitter), what it answers, and when that answer is back.
// Retries follow the client's own policy (retry-policy.ts: backoff with full jitter, never before a
// Retry-After, given up past the cap). What the model says about timing is the test's assumption,
// written down; what the flow control does with it is the code under test.
import { FlowControl, type FlowOptions } from '../../src/send/flow-control.js';
import { rateLimiter } from '../../src/sandbox/rate-limit.js';
import { DEFAULT_RETRY, nextDelay, parseRetryAfter } from '../../src/send/retry-policy.js';
import { makeRandom } from '../../src/sandbox/random.js';
import { VirtualClock } from './virtual-clock.js';

export interface ServerAnswer {
  status: number;
  headers?: Record<string, string>;
  /** ms the answer waits on the server after it counted the request (its queue), on top of `answerDelay`. */
  queuedMs?: number;
}

export interface SimOptions {
  seed: number;
  /** Batches to send (each one request per attempt). */
  batches: number;
  flow?: Partial<FlowOptions>;
  /** The server, asked at the moment it counts a request (its clock is the virtual one). */
  server(now: () => number): (countedAt: number) => ServerAnswer;
  /** ms from a request leaving to the server counting it. */
  countDelay(random: () => number): number;
  /** ms from the server counting it to its answer being back. */
  answerDelay(random: () => number): number;
  /** How late (negative: early) timers fire. */
  lateness?(random: () => number): number;
  /** Stop the simulation here (virtual ms), whatever is left. */
  untilMs?: number;
  /** Attempts per batch; the client's default when not given. */
  maxAttempts?: number;
}

export interface SimResult {
  requests: number;
  throttled: number;
  /** When the server counted each request, in order. */
  counted: number[];
  /** Virtual ms at which the last answer came back. */
  endMs: number;
  /** Batches answered 2xx. */
  delivered: number;
  /** Batches the client gave up (retries exhausted, or a wait beyond the cap). */
  gaveUp: number;
  /** Batches the flow control refused to send (a server wait beyond the cap), with its reason. */
  refused: string[];
  flow: FlowControl;
  clock: VirtualClock;
}

type Admission = Awaited<ReturnType<FlowControl['acquire']>>;

/** What `acquire` gave: a place to send in, or the reason the flow refuses to send (undefined: cancelled). */
function admitted(a: Admission): { release: (signal: 'ok' | 'throttled' | 'neutral', headers?: Record<string, string>) => void } | string | undefined {
  if (a === undefined) return undefined;
  if (typeof a === 'object' && 'release' in a) return a;
  if (typeof a === 'object' && a !== null && 'closed' in a) return String((a as { closed: string }).closed);
  return undefined;
}

export async function simulate(o: SimOptions): Promise<SimResult> {
  // the sandbox's seeded generator (mulberry32): the same seed, the same run
  const random = makeRandom(o.seed);
  const clock = new VirtualClock(o.lateness ? () => o.lateness!(random) : undefined);
  const flow = new FlowControl({ initial: 4, max: 32, pinned: false, now: clock.now, sleep: clock.sleep, ...o.flow });
  const serve = o.server(clock.now);
  const policy = { ...DEFAULT_RETRY, maxAttempts: o.maxAttempts ?? DEFAULT_RETRY.maxAttempts };
  const result: SimResult = { requests: 0, throttled: 0, counted: [], endMs: 0, delivered: 0, gaveUp: 0, refused: [], flow, clock };

  /** One request: it leaves now, is counted, and its answer comes back. */
  const request = (permit: NonNullable<Exclude<ReturnType<typeof admitted>, string>>) =>
    new Promise<ServerAnswer>((resolve) => {
      result.requests++;
      clock.at(o.countDelay(random), () => {
        result.counted.push(clock.now());
        const answer = serve(clock.now());
        clock.at(o.answerDelay(random) + (answer.queuedMs ?? 0), () => {
          if (answer.status === 429) result.throttled++;
          permit.release(answer.status === 429 ? 'throttled' : answer.status < 300 ? 'ok' : 'neutral', answer.headers);
          result.endMs = clock.now();
          resolve(answer);
        });
      });
    });

  const sendBatch = async () => {
    for (let attempt = 1; ; attempt++) {
      const permit = admitted(await flow.acquire());
      if (typeof permit === 'string') return void result.refused.push(permit);
      if (permit === undefined) return;
      const answer = await request(permit);
      if (answer.status < 300) return void result.delivered++;
      const retryAfter = parseRetryAfter(answer.headers?.['retry-after'], clock.now());
      if (attempt >= policy.maxAttempts || (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs)) return void result.gaveUp++;
      await clock.sleep(nextDelay(attempt, policy, retryAfter, random));
    }
  };

  // batches in progress follow the limit now plus two, as rows/send-batch.ts keeps them
  let next = 0;
  let active = 0;
  const fill = () => {
    while (next < o.batches && active < flow.state.concurrency + 2) {
      next++;
      active++;
      void sendBatch().finally(() => {
        active--;
        fill();
      });
    }
  };
  fill();
  await clock.run(o.untilMs);
  return result;
}

/** The most requests counted in any window of `windowMs` (half-open: [t, t + windowMs)). */
export function busiestWindow(counted: number[], windowMs = 1000): number {
  const times = [...counted].sort((a, b) => a - b);
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while (times[to]! - times[from]! >= windowMs) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

/** The sandbox's own rate limit (sandbox/rate-limit.ts; bench stage h1's shape), as a server of the model: 429 with its Retry-After past it. */
export function sandboxLimit(perSecond: number, burst?: number) {
  return (now: () => number) => {
    const limiter = rateLimiter(perSecond, now, burst);
    // the limiter reads the virtual clock itself: the moment of counting is now
    return (_countedAt: number): ServerAnswer => {
      const decision = limiter.take();
      return decision.allowed ? { status: 200 } : { status: 429, headers: { 'retry-after': String(decision.retryAfterSeconds) } };
    };
  };
}

/** A server that applies one request every 1000/perSecond ms, in order (the sandbox's --capacity, bench stage h3): past it the answers queue. */
export function capacityServer(perSecond: number) {
  return (now: () => number) => {
    let busyUntil = 0;
    return (_countedAt: number): ServerAnswer => {
      busyUntil = Math.max(busyUntil, now()) + 1000 / perSecond;
      return { status: 200, queuedMs: busyUntil - now() };
    };
  };
}
