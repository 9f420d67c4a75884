// How push sends: how many requests in flight, how fast, and what it does when a request fails.
// Rows of the settings table (options.ts spreads them in place, so --help keeps this order).
import { z } from 'zod';
import { inGroup, type OptionTable } from './option.js';
import { int, onOff } from './option-schemas.js';

export const SEND_OPTIONS = inGroup('sending', {
  // no default: unset, the limit adapts (send/concurrency-limit.ts) from 4 up to --max-concurrency
  concurrency: {
    flag: '--concurrency <n>',
    plan: 'defaults.concurrency',
    schema: int(1, 256).describe('pin the requests in flight to n, e.g. for an API that locks rows (default: adaptive, see --max-concurrency)'),
  },
  maxConcurrency: {
    flag: '--max-concurrency <n>',
    plan: 'defaults.maxConcurrency',
    default: 32,
    schema: int(1, 256).describe('most requests in flight the adaptive limit may reach (default 32)'),
  },
  maxRate: {
    flag: '--max-rate <n>',
    plan: 'defaults.maxRate',
    schema: z
      .number({ error: 'takes a number of requests per second' })
      .positive('takes a number of requests per second above 0')
      .max(100_000, 'must be at most 100000')
      .describe("requests per second, never exceeded (an API's published quota); paced evenly, no bursts (default: no limit)"),
  },
  retries: {
    flag: '--retries <n>',
    plan: 'defaults.retries',
    default: 5,
    schema: int(0, 20).describe('retries of a batch after a transient failure (default 5)'),
  },
  retryOn500: {
    flag: '--retry-on-500',
    plan: 'defaults.retryOn500',
    default: false,
    schema: onOff('also retry HTTP 500 (off: a 500 may mean a half-applied batch)'),
  },
  retryDelayMs: {
    flag: '--retry-delay <ms>',
    plan: 'defaults.retryDelayMs',
    default: 500,
    schema: int(0, 600_000).describe('first backoff before a retry; doubles each time, with jitter (default 500)'),
  },
  maxRetryTimeMs: {
    flag: '--max-retry-time <ms>',
    plan: 'defaults.maxRetryTimeMs',
    default: 5 * 60_000,
    schema: int(0, 24 * 3600_000).describe('no new attempt of a batch after this long (default 300000)'),
  },
  timeoutMs: {
    flag: '--timeout <ms>',
    plan: 'defaults.timeoutMs',
    default: 60_000,
    schema: int(1, 3600_000).describe('wait this long for response headers and between body chunks (default 60000)'),
  },
} satisfies OptionTable);
