// `batch-sync sandbox`: runs the local implementation of the API until Ctrl+C. Thin: check the
// options, start the core (src/sandbox), print where it listens and each batch it answers.
import { randomBytes } from 'node:crypto';
import { Option, type Command } from 'commander';
import { UsageError } from '../errors.js';
import { BASE_URL_ENV } from '../config/settings.js';
import { API_KEY_ENV } from '../config/api-key.js';
import { SANDBOX_KEY_ENV, sandboxKeyFromEnv } from '../config/environment.js';
import type { Output } from '../report/output.js';
import { visible } from '../report/terminal-text.js';
import type { BatchLogEntry } from '../sandbox/batch-history.js';
import { OPTION_FLAGS, SANDBOX_DEFAULTS, sandboxOptionsSchema } from '../sandbox/options.js';
import type { SetExit } from './set-exit.js';

interface SandboxFlags {
  port: string;
  host: string;
  apiKey?: string;
  store?: string;
  latency: string;
  failRate: string;
  rateLimit?: string;
  rateBurst?: string;
  rateLimitHeaders?: boolean;
  capacity?: string;
  maxItems: string;
  maxBodyBytes: string;
  seed?: string;
  answers: string;
  quiet?: boolean;
}

function number(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(text.trim())) throw new UsageError(`${flag}: "${text}" is not a number`);
  return Number(text);
}

function describeBatch(e: BatchLogEntry): string {
  const head = `#${e.seq} ${e.method} ${e.resource} batchId=${e.batchId}: ${e.items} ${e.items === 1 ? 'item' : 'items'}`;
  if (e.status === 200) return `${head}, ${e.accepted} accepted, ${e.errors} ${e.errors === 1 ? 'error' : 'errors'} (data.code ${e.code})`;
  return `${head} → answered ${e.status}`;
}

export function registerSandbox(program: Command, output: Output, _setExit: SetExit): void {
  program
    .command('sandbox')
    .description('run a local implementation of the batch integration API to try push against')
    .option('--port <n>', 'TCP port; 0 picks a free one', String(SANDBOX_DEFAULTS.port))
    .option('--host <host>', 'interface to listen on', SANDBOX_DEFAULTS.host)
    .option('--api-key <key>', `key requests must send in x-api-key (default: $${SANDBOX_KEY_ENV}, else a random one)`)
    .option('--store <file>', 'JSON file to load the records from and save them to')
    .option('--latency <ms>', 'delay before every answer', '0')
    .option('--fail-rate <r>', 'share of batches answered 500, 0..1', '0')
    .option('--rate-limit <n>', 'batches per second, in fixed windows of one second; above it 429 with Retry-After')
    .option('--rate-burst <n>', 'with --rate-limit: a token bucket saving up to n batches instead of the fixed window')
    .option('--rate-limit-headers', 'send RateLimit and RateLimit-Policy (IETF draft) with every answer to a batch')
    .option('--capacity <items/s>', 'items per second the sandbox applies; past it answers queue and latency grows')
    .option('--max-items <n>', 'items per batch; above it 400', String(SANDBOX_DEFAULTS.maxItems))
    .option('--max-body-bytes <n>', 'body size; above it 413', String(SANDBOX_DEFAULTS.maxBodyBytes))
    .option('--seed <n>', 'seed for --fail-rate, so the same batches fail on every run')
    .addOption(
      new Option(
        '--answers <style>',
        "named: every error detail names its item (items[3] externalId=X: …) and data.success counts accepted items; documented: as the real API's documentation shows — details that name no item, data.success always 100, data.code 201 when a record was created (the closest local stand-in for the real API)",
      )
        .choices(['named', 'documented'])
        .default('named'),
    )
    .option('--quiet', 'do not print a line per batch')
    .action(async (flags: SandboxFlags) => {
      const envKey = sandboxKeyFromEnv();
      const generated = !flags.apiKey && !envKey;
      const candidate = {
        port: number('--port', flags.port),
        host: flags.host,
        apiKey: flags.apiKey ?? envKey ?? `sbx_${randomBytes(18).toString('base64url')}`,
        store: flags.store,
        latencyMs: number('--latency', flags.latency),
        failRate: number('--fail-rate', flags.failRate),
        rateLimit: number('--rate-limit', flags.rateLimit),
        rateBurst: number('--rate-burst', flags.rateBurst),
        rateLimitHeaders: flags.rateLimitHeaders === true,
        capacity: number('--capacity', flags.capacity),
        maxItems: number('--max-items', flags.maxItems),
        maxBodyBytes: number('--max-body-bytes', flags.maxBodyBytes),
        seed: number('--seed', flags.seed),
        answers: flags.answers,
      };
      const checked = sandboxOptionsSchema.safeParse(candidate);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        const flag = OPTION_FLAGS[issue.path[0] as keyof typeof OPTION_FLAGS] ?? String(issue.path[0]);
        throw new UsageError(`${flag}: ${issue.message}`);
      }

      const sandbox = await (await import('../sandbox/server.js'))
        .startSandbox({
          ...checked.data,
          onBatch: flags.quiet ? undefined : (entry) => output.err(visible(describeBatch(entry))),
        })
        .catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EADDRINUSE')
            throw new UsageError(`port ${candidate.port} on ${candidate.host} is in use`, { suggestion: 'pick another with --port (0 picks a free one)' });
          if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on --host ${candidate.host}`);
          throw error;
        });

      output.out(`sandbox listening on ${sandbox.url}`);
      output.out(`API key: ${sandbox.apiKey}${generated ? ` (generated for this run; fix one with --api-key or ${SANDBOX_KEY_ENV})` : ''}`);
      output.out(`point push at it: ${BASE_URL_ENV}=${sandbox.url} ${API_KEY_ENV}=${sandbox.apiKey} batch-sync push ...`);
      output.out(`inspect: ${sandbox.url}/_sandbox/stats, /_sandbox/batches, /_sandbox/records/<deals|activities|account|sales-profile>`);
      output.err('press Ctrl+C to stop');

      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await sandbox.close();
      output.err(`sandbox stopped${flags.store ? `; records saved to ${flags.store}` : ''}`);
    });
}
