// Every option of validate and push, each declared once (see option.ts). The order is the order
// `--help` lists them in. A new setting is one row here (and its use where it acts).
import { z } from 'zod';
import { METHODS, RESOURCE_NAMES_HELP } from '../contract/resources.js';
import { withoutCredentials } from '../send/base-url.js';
import { ANSWER_STYLES_HELP, answerStyle, DEFAULT_ANSWER_STYLE } from '../contract/answer-styles.js';
import { DEFAULT_SUCCESS_CODES } from '../send/answers.js';
import { inGroup, type OptionRow, type OptionTable } from './option.js';
import { int, onOff, text } from './option-schemas.js';
import { READER_OPTIONS } from './options-reader.js';
import { CI_REPORT_OPTIONS, NOTIFY_OPTIONS } from './options-ci.js';
import { REPORT_FORMATS } from '../report/reporters.js';
import { SEND_OPTIONS } from './send-options.js';

export const BASE_URL_ENV = 'BATCH_SYNC_BASE_URL';
export const API_KEY_ENV = 'BATCH_SYNC_API_KEY';
const ENGINE_ENV = 'BATCH_SYNC_ENGINE';

/**
 * Which machinery reads, maps, validates and serialises the rows. `simple`: one thread, csv-parse,
 * zod, JSON.stringify. `fast`: the read worker for every input, the fast CSV path, the mappers' JSON
 * writers and the row-fingerprint shortcut of incremental runs. `auto`: the fast paths, with the
 * worker only for inputs large enough to gain from it. Their outputs are the same (test/e2e/engines-identical).
 */
const ENGINES = ['simple', 'fast', 'auto'] as const;
export type Engine = (typeof ENGINES)[number];

const withHelp = <T>(row: OptionRow<T>, help: string): OptionRow<T> => ({ ...row, schema: row.schema.describe(help) });

/** What to read and how, and how to report it: validate and push alike. */
export const INPUT_OPTIONS = {
  profile: {
    flag: '-p, --profile <file>',
    group: 'mapping',
    repeatable: true,
    schema: z
      .array(z.string())
      .describe(
        'mapping profile for the files not paired as FILE:PROFILE (default: <name>.profile.json beside each file, where init writes it, else canonical column names)',
      ),
  },
  resource: {
    flag: '-r, --resource <kind>',
    group: 'mapping',
    schema: text(`what the files not paired as FILE:KIND hold: ${RESOURCE_NAMES_HELP} (default: from an errors CSV's _resource, the profile or the file name)`),
  },
  config: { flag: '-c, --config <file>', group: 'input', schema: text('sync plan (default: ./batch-sync.config.json if present)') },
  ...READER_OPTIONS,
  format: {
    flag: '--format <format>',
    group: 'reports',
    schema: z.enum(REPORT_FORMATS).describe('report format; github: workflow annotations and a step summary'),
    default: 'human',
    helpDefault: 'human',
  },
} satisfies OptionTable;

/** The settings of a run, resolved by config/settings.ts: flag, environment, plan, default. */
const SETTINGS_OPTIONS = inGroup('sending', {
  baseUrl: {
    flag: '--base-url <url>',
    env: BASE_URL_ENV,
    plan: 'baseUrl',
    // neither userinfo nor the query is echoed: they may hold a key (user:key@, ?apikey=…)
    schema: z
      .url({ error: (iss) => `${JSON.stringify(typeof iss.input === 'string' ? withoutCredentials(iss.input) : iss.input)} is not a URL` })
      .describe(`API root, e.g. https://api.example.com (or $${BASE_URL_ENV}, or the plan's baseUrl)`),
  },
  apiKeyFile: { flag: '--api-key-file <file>', schema: text(`file holding the API key, mode 600 (otherwise $${API_KEY_ENV}; never a flag value)`) },
  source: {
    flag: '--source <name>',
    group: 'mapping',
    plan: 'source',
    default: 'batch-sync',
    schema: z.string().min(1, 'must not be empty').describe('the envelope\'s source: the name of the sending system (default: the plan\'s, else "batch-sync")'),
  },
  method: {
    flag: '--method <method>',
    group: 'mapping',
    plan: 'defaults.method',
    default: 'post',
    schema: z.enum(METHODS, { error: 'takes post or patch' }).describe('operation to use: post (create or replace) or patch (update)'),
  },
  batchSize: { flag: '--batch-size <n>', plan: 'defaults.batchSize', default: 100, schema: int(1, 10_000).describe('items per batch (default 100)') },
  // 5 MiB: far below what web front ends usually refuse, far above 100 typical items
  maxBodyBytes: {
    flag: '--max-body-bytes <n>',
    plan: 'defaults.maxBodyBytes',
    default: 5 * 1024 * 1024,
    schema: int(1024, 1024 ** 3).describe('largest request body; batches are cut to fit (default 5 MiB)'),
  },
  ...SEND_OPTIONS,
  holdDependents: {
    flag: '--no-hold-dependents',
    plan: 'defaults.holdDependents',
    default: true,
    schema: onOff('send deals and activities even when their owner (or agent) sales profile failed in this run'),
  },
  answerStyle: {
    flag: '--answers <style>',
    plan: 'answers.style',
    default: DEFAULT_ANSWER_STYLE,
    schema: answerStyle.describe(`how the API answers (${ANSWER_STYLES_HELP}); with --sandbox, the sandbox answers so too`),
  },
  // the old defaults.checkSuccessCount still means answers.successIsCount
  checkSuccessCount: {
    flag: '--no-check-success-count',
    plan: ['answers.successIsCount', 'defaults.checkSuccessCount'],
    schema: onOff('data.success is informational, not the count of accepted items (plan: answers.successIsCount false)'),
  },
  namesItems: { plan: 'answers.namesItems', schema: onOff('every detail of an answer names its item') },
  successCodes: {
    plan: 'answers.successCodes',
    default: [...DEFAULT_SUCCESS_CODES],
    schema: z.array(z.number().int().min(100).max(999)).min(1).describe('data.code values that mean the batch was processed'),
  },
  isolateUnattributed: {
    flag: '--isolate-unattributed',
    plan: 'defaults.isolateUnattributed',
    default: false,
    schema: onOff(
      "when an answer's errors name no row, resend that batch split until each error is pinned to one row; it RESENDS rows the server may already have applied: use it only when POST/PATCH replace by externalId",
    ),
  },
  // each error costs about 2·log2(batch size) extra requests
  engine: {
    flag: '--engine <engine>',
    group: 'input',
    env: ENGINE_ENV,
    plan: 'defaults.engine',
    default: 'auto',
    schema: z
      .enum(ENGINES, { error: (iss) => `takes simple, fast or auto, not ${JSON.stringify(iss.input)}` })
      .describe(
        'simple: one thread, csv-parse, zod; fast: a read worker and fast paths; auto: fast paths, the worker for large inputs. Same output (default: auto)',
      ),
  },
  // internal tuning of the read worker, for tests only: no flag, no plan key
  readSplit: {
    env: 'BATCH_SYNC_READ_SPLIT',
    default: 'auto',
    schema: z.enum(['auto', 'all', 'none']).describe('which chunks the read worker leaves RAW for the main thread'),
  },
  readChunkRows: { env: 'BATCH_SYNC_READ_CHUNK_ROWS', default: 1024, schema: int(1, 1_000_000).describe('rows per chunk of the read worker') },
  isolationBudget: {
    flag: '--isolation-budget <n>',
    plan: 'defaults.isolationBudget',
    default: 5000,
    schema: int(0, Number.MAX_SAFE_INTEGER).describe('most extra requests --isolate-unattributed sends in a run; past it rows stay UNVERIFIED (default 5000)'),
  },
} satisfies OptionTable);

/** The unattended-run settings (config/settings.ts `unattended`): the state directory and the guard. */
export const NIGHTLY_OPTIONS = inGroup('nightly', {
  incremental: {
    flag: '--incremental',
    plan: 'incremental',
    schema: onOff('send only rows new or changed since the server last accepted them (state in --state-dir)'),
  },
  full: { flag: '--full', schema: onOff('send every row this once, ignoring incremental mode; what is accepted is still recorded') },
  stateDir: {
    flag: '--state-dir <dir>',
    plan: 'stateDir',
    schema: text('where the state, the lock and reports live (default: .batch-sync beside the plan, else here)'),
  },
  reportDir: {
    flag: '--report-dir <dir>',
    plan: 'reportDir',
    schema: text("write each run's JSON report, summary and errors CSV under <dir>/<run id>/ (default: <state-dir>/reports)"),
  },
  keepReports: {
    flag: '--keep-reports <n>',
    default: 30,
    schema: int(1, 100_000).describe('run folders kept in --report-dir; older ones are deleted (default 30)'),
  },
  maxRejections: {
    flag: '--max-rejections <n>',
    plan: 'maxRejections',
    schema: int(0, Number.MAX_SAFE_INTEGER).describe('stop the run (exit 3) once more than n rows were invalid or rejected'),
  },
  maxRejectionRate: {
    flag: '--max-rejection-rate <r>',
    plan: 'maxRejectionRate',
    schema: z
      .number({ error: 'takes a number from 0 to 1' })
      .min(0, 'takes a number from 0 to 1')
      .max(1, 'takes a number from 0 to 1')
      .describe('stop the run (exit 3) once more than this share (0..1) of rows were invalid or rejected, judged from 100 rows on'),
  },
} satisfies OptionTable);

const quiet = { flag: '-q, --quiet', group: 'reports' as const, schema: onOff('print only the report and errors') };
const errors = {
  flag: '--errors <file.csv|dir>',
  group: 'reports' as const,
  schema: text('write the rows not accepted, with their original columns, to a CSV to fix and push again'),
};
const emit = {
  flag: '--emit <file>',
  group: 'reports' as const,
  schema: text('with --dry-run: write the batch envelopes here, one per line; "-": to stdout (the report then goes to stderr)'),
};
const html = {
  flag: '--html <file>',
  group: 'reports' as const,
  schema: text('also write the report as one self-contained HTML page: outcome bars, reasons with their rows, a timeline of the run'),
};
const verbose = {
  flag: '-v, --verbose',
  group: 'reports' as const,
  schema: onOff('print retries and warnings as they happen (field names and row numbers, never values)'),
};

/** Where a push sends: the API, or an embedded sandbox. */
const TARGET_OPTIONS = inGroup('sending', {
  sandbox: {
    flag: '--sandbox',
    schema: onOff('push into an embedded sandbox API started for this run (no account needed)'),
    excludes: { options: ['baseUrl', 'apiKeyFile'], message: '--sandbox starts its own API: drop --base-url and --api-key-file' },
  },
  caFile: { flag: '--ca-file <file>', schema: text('PEM file of a private certificate authority to trust') },
  allowInsecureHttp: { flag: '--allow-insecure-http', schema: onOff('allow http:// to a host other than this machine (the key travels in clear text)') },
} satisfies OptionTable);

/** Every option that is a setting of the run (config/settings.ts), and so every option the plan may hold. */
export const RUN_OPTIONS = { ...SETTINGS_OPTIONS, ...TARGET_OPTIONS, ...NIGHTLY_OPTIONS, ...NOTIFY_OPTIONS } satisfies OptionTable;

const { apiKeyFile, baseUrl, ...sending } = SETTINGS_OPTIONS;

export const PUSH_OPTIONS = {
  ...INPUT_OPTIONS,
  baseUrl,
  apiKeyFile,
  ...sending,
  errors,
  dryRun: { flag: '--dry-run', group: 'sending', schema: onOff('do everything but send; list the batches that would go (id, items, bytes) in the report') },
  emit: { ...emit, needs: { option: 'dryRun', message: '--emit goes with --dry-run (push sends the batches; validate --emit writes them)' } },
  ...TARGET_OPTIONS,
  // a run's option, not a setting: a plan cannot hold it (it keeps the process serving)
  keepOpen: {
    flag: '--keep-open',
    group: 'sending',
    schema: onOff("with --sandbox: keep the embedded sandbox and its page serving after the run, until Ctrl+C (the exit code is still the run's)"),
  },
  ...NIGHTLY_OPTIONS,
  ...NOTIFY_OPTIONS,
  junit: CI_REPORT_OPTIONS.junit,
  html,
  quiet,
  verbose,
} satisfies OptionTable;

export const VALIDATE_OPTIONS = {
  ...INPUT_OPTIONS,
  emit: withHelp(emit, 'write the batch envelopes that would be sent, one JSON envelope per line; "-": to stdout (the report then goes to stderr)'),
  errors: withHelp(errors, 'write the rows not valid, with their original columns, to a CSV'),
  source: withHelp(SETTINGS_OPTIONS.source, 'envelope source for --emit'),
  method: withHelp(SETTINGS_OPTIONS.method, 'validate against the post or patch item shape'),
  engine: SETTINGS_OPTIONS.engine,
  readSplit: SETTINGS_OPTIONS.readSplit,
  readChunkRows: SETTINGS_OPTIONS.readChunkRows,
  batchSize: withHelp(SETTINGS_OPTIONS.batchSize, 'items per batch for --emit'),
  junit: CI_REPORT_OPTIONS.junit,
  html,
  quiet,
  verbose: withHelp(verbose, 'print warnings as they are found (field names and row numbers, never values)'),
} satisfies OptionTable;

/** What the command itself does with the report and the output files. */
export const REPORT_OPTIONS = { format: INPUT_OPTIONS.format, errors, emit, html, quiet, verbose, ...CI_REPORT_OPTIONS } satisfies OptionTable;
