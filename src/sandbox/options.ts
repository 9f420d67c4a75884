// What a sandbox can be told: where to listen, which key to require, where to keep its records, and
// which limits and faults to play. One zod schema, used by startSandbox and by the command's checks.
import { z } from 'zod';
import { ANSWER_STYLES_HELP, answerStyle, SANDBOX_ANSWER_STYLE } from '../contract/answer-styles.js';
import type { BatchLogEntry } from './batch-history.js';

export const SANDBOX_DEFAULTS = {
  port: 4010,
  host: '127.0.0.1',
  latencyMs: 0,
  failRate: 0,
  maxItems: 1000,
  // 10 MiB: many times a batch of 1,000 rich deals, so only a runaway body hits it
  maxBodyBytes: 10 * 1024 * 1024,
  historyLimit: 10_000,
} as const;

const positiveInt = z.number().int().positive();

export const sandboxOptionsSchema = z
  .strictObject({
    port: z.number().int().min(0).max(65535).default(SANDBOX_DEFAULTS.port).describe('TCP port; 0 picks a free one.'),
    host: z.string().min(1).default(SANDBOX_DEFAULTS.host),
    pagePort: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe('Serve the page of what the sandbox holds on this port of 127.0.0.1 (0: a free one); no page when absent.'),
    apiKey: z.string().min(1, 'must not be empty').describe('The key every API request must carry in x-api-key.'),
    store: z.string().min(1).optional().describe('JSON file the records are loaded from and persisted to.'),
    latencyMs: z.number().int().min(0).max(600_000).default(SANDBOX_DEFAULTS.latencyMs),
    failRate: z.number().min(0).max(1).default(SANDBOX_DEFAULTS.failRate).describe('Share of batches answered 500.'),
    rateLimit: positiveInt.optional().describe('Batches per second; above it 429 with Retry-After.'),
    rateBurst: positiveInt.optional().describe('With rateLimit: a token bucket that saves up to this many batches, instead of a fixed window of one second.'),
    rateLimitHeaders: z.boolean().default(false).describe('Send RateLimit and RateLimit-Policy (IETF draft) with every answer to a batch.'),
    capacity: z
      .number()
      .positive()
      .optional()
      .describe('Items per second the sandbox can apply; past it answers queue and latency grows, as on a loaded server.'),
    maxItems: positiveInt.default(SANDBOX_DEFAULTS.maxItems).describe('Items per batch; above it 400.'),
    maxBodyBytes: positiveInt.default(SANDBOX_DEFAULTS.maxBodyBytes).describe('Body size; above it 413.'),
    seed: z.number().int().optional().describe('Seed of the random numbers behind failRate (deterministic tests).'),
    historyLimit: positiveInt.default(SANDBOX_DEFAULTS.historyLimit),
    allowUnknownActivityOwners: z
      .boolean()
      .default(false)
      .describe("Accept an activity whose ownerExternalId is no sales profile; by default it is refused, as a deal's owner is."),
    answers: answerStyle.default(SANDBOX_ANSWER_STYLE).describe(ANSWER_STYLES_HELP),
  })
  .refine((o) => o.rateBurst === undefined || o.rateLimit !== undefined, { message: 'goes with --rate-limit', path: ['rateBurst'] });

/** What callers pass: everything but the key has a default. */
export type SandboxOptions = z.input<typeof sandboxOptionsSchema> & {
  /** Clock for the rate limiter; tests pin it. */
  now?: () => number;
  /** Told about every batch that got as far as a parsed envelope (the command logs them). */
  onBatch?: (entry: BatchLogEntry) => void;
};
export type ResolvedSandboxOptions = z.output<typeof sandboxOptionsSchema>;
