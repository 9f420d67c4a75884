// `batch-sync sandbox`'s options, declared once (config/option.ts): the flags and their help; the
// ranges are the sandbox's own schema's (sandbox/options.ts), which every caller of startSandbox
// goes through, so the command checks its values there too.
import { z } from 'zod';
import { ANSWER_STYLES_HELP, answerStyle, SANDBOX_ANSWER_STYLE } from '../contract/answer-styles.js';
import { SANDBOX_DEFAULTS } from '../sandbox/options.js';
import { SANDBOX_KEY_ENV } from './environment.js';
import type { OptionTable } from './option.js';
import { onOff, text } from './option-schemas.js';

const number = (help: string) => z.number({ error: 'takes a number' }).describe(help);

export const SANDBOX_OPTIONS = {
  port: { flag: '--port <n>', schema: number('TCP port; 0 picks a free one'), default: SANDBOX_DEFAULTS.port, helpDefault: String(SANDBOX_DEFAULTS.port) },
  host: { flag: '--host <host>', schema: text('interface to listen on'), default: SANDBOX_DEFAULTS.host, helpDefault: SANDBOX_DEFAULTS.host },
  pagePort: {
    flag: '--page-port <n>',
    schema: number('port of the page showing what the sandbox holds, on 127.0.0.1 only; 0 picks a free one'),
    default: 0,
    helpDefault: 'a free one',
  },
  apiKey: {
    flag: '--api-key <key>',
    env: SANDBOX_KEY_ENV,
    schema: text(`key requests must send in x-api-key (default: $${SANDBOX_KEY_ENV}, else a random one)`),
  },
  store: { flag: '--store <file>', schema: text('JSON file to load the records from and save them to') },
  latencyMs: { flag: '--latency <ms>', schema: number('delay before every answer'), default: SANDBOX_DEFAULTS.latencyMs, helpDefault: '0' },
  failRate: { flag: '--fail-rate <r>', schema: number('share of batches answered 500, 0..1'), default: SANDBOX_DEFAULTS.failRate, helpDefault: '0' },
  rateLimit: { flag: '--rate-limit <n>', schema: number('batches per second, in fixed windows of one second; above it 429 with Retry-After') },
  rateBurst: { flag: '--rate-burst <n>', schema: number('with --rate-limit: a token bucket saving up to n batches instead of the fixed window') },
  rateLimitHeaders: { flag: '--rate-limit-headers', schema: onOff('send RateLimit and RateLimit-Policy (IETF draft) with every answer to a batch') },
  capacity: { flag: '--capacity <items/s>', schema: number('items per second the sandbox applies; past it answers queue and latency grows') },
  maxItems: {
    flag: '--max-items <n>',
    schema: number('items per batch; above it 400'),
    default: SANDBOX_DEFAULTS.maxItems,
    helpDefault: String(SANDBOX_DEFAULTS.maxItems),
  },
  maxBodyBytes: {
    flag: '--max-body-bytes <n>',
    schema: number('body size; above it 413'),
    default: SANDBOX_DEFAULTS.maxBodyBytes,
    helpDefault: String(SANDBOX_DEFAULTS.maxBodyBytes),
  },
  allowUnknownActivityOwners: {
    flag: '--allow-unknown-activity-owners',
    schema: onOff("accept an activity whose owner is no sales profile (by default refused, as a deal's owner is)"),
  },
  seed: { flag: '--seed <n>', schema: number('seed for --fail-rate, so the same batches fail on every run') },
  answers: {
    flag: '--answers <style>',
    schema: answerStyle.describe(`${ANSWER_STYLES_HELP} (documented is the closest local stand-in for the real API)`),
    default: SANDBOX_ANSWER_STYLE,
    helpDefault: SANDBOX_ANSWER_STYLE,
  },
  quiet: { flag: '--quiet', schema: onOff('do not print a line per batch') },
} satisfies OptionTable;
