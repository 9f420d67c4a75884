// One place decides each setting of a run: a flag beats the environment, which beats the plan
// (for the base URL), which beats the default. The result is validated once, with errors that
// name the flag.
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { METHODS, type Method } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import { withoutQuery } from '../send/base-url.js';
import { ANSWER_STYLE_NAMES, ANSWER_STYLES, DEFAULT_ANSWER_STYLE, DEFAULT_SUCCESS_CODES, type AnswerStyle } from '../send/answers.js';
import type { SyncPlan } from './sync-plan.js';

export const DEFAULTS = {
  source: 'batch-sync',
  method: 'post' as Method,
  batchSize: 100,
  concurrency: 4,
  // 5 MiB: far below what web front ends usually refuse, far above 100 typical items
  maxBodyBytes: 5 * 1024 * 1024,
  retries: 5,
  /** First backoff; doubles per retry, with full jitter. */
  retryDelayMs: 500,
  /** No new attempt of a batch after this long. */
  maxRetryTimeMs: 5 * 60_000,
  /** Waiting for the response headers, and for each piece of the body. */
  timeoutMs: 60_000,
  /** Extra requests --isolate-unattributed may send in one run (each error costs about 2·log2(batch size)). */
  isolationBudget: 5000,
};

export const BASE_URL_ENV = 'BATCH_SYNC_BASE_URL';
export const ENGINE_ENV = 'BATCH_SYNC_ENGINE';

/**
 * Which machinery reads, maps, validates and serialises the rows. `simple`: one thread, csv-parse,
 * zod, JSON.stringify. `fast`: the read worker for every input, the fast CSV path, the mappers' JSON
 * writers and the row-fingerprint shortcut of incremental runs. `auto`: the fast paths, with the
 * worker only for inputs large enough to gain from it. Their outputs are the same (test/engines).
 */
export const ENGINES = ['simple', 'fast', 'auto'] as const;
export type Engine = (typeof ENGINES)[number];

/** Internal tuning of the read worker, for tests: chunk boundaries inside small inputs, RAW chunks or none. */
export interface ReadTuning {
  /** Which chunks the worker leaves RAW for the main thread: alternate ones (auto), every one or none. */
  split: 'auto' | 'all' | 'none';
  chunkRows: number;
}

/** BATCH_SYNC_READ_SPLIT and BATCH_SYNC_READ_CHUNK_ROWS: read here, once, never deep in the core. */
function readTuning(env: NodeJS.ProcessEnv): ReadTuning {
  const split = env.BATCH_SYNC_READ_SPLIT;
  return { split: split === 'all' || split === 'none' ? split : 'auto', chunkRows: Number(env.BATCH_SYNC_READ_CHUNK_ROWS) || 1024 };
}
/** Beside the plan file when a plan is used, else in the working directory. */
export const DEFAULT_STATE_DIR = '.batch-sync';
export const DEFAULT_KEEP_REPORTS = 30;

/** What the command line said; undefined means "not given". */
export interface FlagSettings {
  baseUrl?: string;
  source?: string;
  method?: string;
  batchSize?: string | number;
  maxBodyBytes?: string | number;
  concurrency?: string | number;
  retries?: string | number;
  retryOn500?: boolean;
  retryDelayMs?: string | number;
  maxRetryTimeMs?: string | number;
  timeoutMs?: string | number;
  holdDependents?: boolean;
  checkSuccessCount?: boolean;
  /** How the API answers: a preset of the answers profile (documented, named). */
  answers?: string;
  isolateUnattributed?: boolean;
  isolationBudget?: string | number;
  incremental?: boolean;
  /** One run that sends everything, ignoring incremental mode, and still records what is accepted. */
  full?: boolean;
  stateDir?: string;
  reportDir?: string;
  keepReports?: string | number;
  maxRejections?: string | number;
  maxRejectionRate?: string | number;
  engine?: string;
}

const intFlag = (flag: string, min: number, max: number) =>
  z.coerce.number({ error: `${flag} takes a whole number` }).int(`${flag} takes a whole number`).min(min, `${flag} must be at least ${min}`).max(max, `${flag} must be at most ${max}`);

const schema = z.object({
  // the query is not echoed: it may hold a token (?apikey=…)
  baseUrl: z.url({ error: (iss) => `--base-url ${JSON.stringify(typeof iss.input === 'string' ? withoutQuery(iss.input) : iss.input)} is not a URL` }).optional(),
  source: z.string().min(1, '--source must not be empty'),
  method: z.enum(METHODS, { error: '--method takes post or patch' }),
  batchSize: intFlag('--batch-size', 1, 10_000),
  maxBodyBytes: intFlag('--max-body-bytes', 1024, 1024 ** 3),
  concurrency: intFlag('--concurrency', 1, 64),
  retries: intFlag('--retries', 0, 20),
  retryOn500: z.boolean(),
  retryDelayMs: intFlag('--retry-delay', 0, 600_000),
  maxRetryTimeMs: intFlag('--max-retry-time', 0, 24 * 3600_000),
  timeoutMs: intFlag('--timeout', 1, 3600_000),
  holdDependents: z.boolean(),
  /** data.success counts accepted items (answers.successIsCount; --no-check-success-count turns it off). */
  checkSuccessCount: z.boolean(),
  answerStyle: z.enum(ANSWER_STYLE_NAMES, { error: `--answers takes ${ANSWER_STYLE_NAMES.join(' or ')}` }),
  namesItems: z.boolean(),
  successCodes: z.array(z.number().int()).min(1),
  isolateUnattributed: z.boolean(),
  isolationBudget: intFlag('--isolation-budget', 0, Number.MAX_SAFE_INTEGER),
  /** Leave out items unchanged since the server last accepted them. */
  incremental: z.boolean(),
  /** Record what the server accepts in the state store (incremental mode, or --full). */
  recordState: z.boolean(),
  /** Absolute; set when the run uses a state directory (state, lock, reports). */
  stateDir: z.string().optional(),
  /** Absolute; set when reports go to disk. */
  reportDir: z.string().optional(),
  keepReports: intFlag('--keep-reports', 1, 100_000),
  maxRejections: intFlag('--max-rejections', 0, Number.MAX_SAFE_INTEGER).optional(),
  maxRejectionRate: z.coerce.number({ error: '--max-rejection-rate takes a number from 0 to 1' }).min(0, '--max-rejection-rate takes a number from 0 to 1').max(1, '--max-rejection-rate takes a number from 0 to 1').optional(),
  engine: z.enum(ENGINES, { error: (iss) => `the engine is simple, fast or auto, not ${JSON.stringify(iss.input)} (--engine, $${ENGINE_ENV} or the plan's defaults.engine)` }),
  readTuning: z.custom<ReadTuning>(),
});
export type ResolvedSettings = z.output<typeof schema>;

/**
 * The state directory is used (lock, state, reports) when incremental mode is on, --full is given,
 * or a state or report directory is named. Flag paths are relative to the working directory, plan
 * paths to the plan file.
 */
function unattended(flags: FlagSettings, plan: SyncPlan | undefined, cwd: string) {
  const configured = flags.incremental ?? plan?.incremental ?? false;
  const full = flags.full ?? false;
  const used = configured || full || [flags.stateDir, flags.reportDir, plan?.stateDir, plan?.reportDir].some((p) => p !== undefined);
  if (!used) return { incremental: false, recordState: false };
  const stateDir = flags.stateDir !== undefined ? resolve(cwd, flags.stateDir) : resolve(plan?.dir ?? cwd, plan?.stateDir ?? DEFAULT_STATE_DIR);
  const reportDir = flags.reportDir !== undefined ? resolve(cwd, flags.reportDir) : plan?.reportDir !== undefined ? resolve(plan.dir, plan.reportDir) : join(stateDir, 'reports');
  return { incremental: configured && !full, recordState: configured || full, stateDir, reportDir };
}

/**
 * The answers profile: a style given as a flag sets both switches; otherwise each comes from the plan's
 * `answers`, then (success only) the plan's old `defaults.checkSuccessCount`, then the style's preset.
 * `--no-check-success-count` always wins for success.
 */
function answers(flags: FlagSettings, plan: SyncPlan | undefined) {
  const planned = plan?.answers;
  const style = (flags.answers ?? planned?.style ?? DEFAULT_ANSWER_STYLE) as AnswerStyle;
  const preset = ANSWER_STYLES[style] ?? ANSWER_STYLES[DEFAULT_ANSWER_STYLE];
  const fromFlag = flags.answers !== undefined;
  return {
    answerStyle: style,
    checkSuccessCount: flags.checkSuccessCount ?? (fromFlag ? preset.successIsCount : undefined) ?? planned?.successIsCount ?? plan?.defaults?.checkSuccessCount ?? preset.successIsCount,
    namesItems: (fromFlag ? preset.namesItems : undefined) ?? planned?.namesItems ?? preset.namesItems,
    successCodes: planned?.successCodes ?? [...DEFAULT_SUCCESS_CODES],
  };
}

export function resolveSettings(flags: FlagSettings, plan: SyncPlan | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ResolvedSettings {
  const d = plan?.defaults ?? {};
  const parsed = schema.safeParse({
    baseUrl: flags.baseUrl ?? (env[BASE_URL_ENV] || undefined) ?? plan?.baseUrl,
    source: flags.source ?? plan?.source ?? DEFAULTS.source,
    method: flags.method ?? d.method ?? DEFAULTS.method,
    batchSize: flags.batchSize ?? d.batchSize ?? DEFAULTS.batchSize,
    maxBodyBytes: flags.maxBodyBytes ?? d.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    concurrency: flags.concurrency ?? d.concurrency ?? DEFAULTS.concurrency,
    retries: flags.retries ?? d.retries ?? DEFAULTS.retries,
    retryOn500: flags.retryOn500 ?? d.retryOn500 ?? false,
    retryDelayMs: flags.retryDelayMs ?? d.retryDelayMs ?? DEFAULTS.retryDelayMs,
    maxRetryTimeMs: flags.maxRetryTimeMs ?? d.maxRetryTimeMs ?? DEFAULTS.maxRetryTimeMs,
    timeoutMs: flags.timeoutMs ?? d.timeoutMs ?? DEFAULTS.timeoutMs,
    holdDependents: flags.holdDependents ?? d.holdDependents ?? true,
    ...answers(flags, plan),
    isolateUnattributed: flags.isolateUnattributed ?? d.isolateUnattributed ?? false,
    isolationBudget: flags.isolationBudget ?? d.isolationBudget ?? DEFAULTS.isolationBudget,
    ...unattended(flags, plan, cwd),
    keepReports: flags.keepReports ?? DEFAULT_KEEP_REPORTS,
    maxRejections: flags.maxRejections ?? plan?.maxRejections,
    maxRejectionRate: flags.maxRejectionRate ?? plan?.maxRejectionRate,
    engine: flags.engine ?? (env[ENGINE_ENV] || undefined) ?? d.engine ?? 'auto',
    readTuning: readTuning(env),
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  return parsed.data;
}
