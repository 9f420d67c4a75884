// `batch-sync sandbox`: runs the local implementation of the API until Ctrl+C. Thin: check the
// options, start the core (src/sandbox), print where it listens and each batch it answers.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { BASE_URL_ENV } from '../config/settings.js';
import { API_KEY_ENV } from '../config/api-key.js';
import { invocation, processEnv, SANDBOX_KEY_ENV } from '../config/environment.js';
import { longFlag, resolveOptions } from '../config/option.js';
import { SANDBOX_OPTIONS } from '../config/sandbox-options.js';
import type { Output } from '../report/output.js';
import { visible } from '../report/terminal-text.js';
import type { BatchLogEntry } from '../sandbox/batch-history.js';
import { sandboxOptionsSchema } from '../sandbox/options.js';
import { addOptions, givenFlags } from './add-options.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';
import { untilInterrupted } from './signals.js';

function describeBatch(e: BatchLogEntry): string {
  const head = `#${e.seq} ${e.method} ${e.resource} batchId=${e.batchId}: ${e.items} ${e.items === 1 ? 'item' : 'items'}`;
  if (e.status === 200) return `${head}, ${e.accepted} accepted, ${e.errors} ${e.errors === 1 ? 'error' : 'errors'} (data.code ${e.code})`;
  return `${head} → answered ${e.status}`;
}

export function registerSandbox(program: Command, output: Output, _setExit: SetExit): void {
  const command = program
    .command('sandbox')
    .description('run a local implementation of the batch integration API to try push against')
    .addHelpText(
      'after',
      examples(
        ['batch-sync sandbox --port 0 --api-key try-it', 'a free port; it prints the two variables to give push'],
        ['batch-sync sandbox --port 0 --answers documented --fail-rate 0.1 --seed 7', 'answers as the real API does, 1 batch in 10 failing'],
        ['batch-sync sandbox --port 0 --store sandbox.json --quiet', 'records kept across restarts'],
      ),
    );
  addOptions(command, SANDBOX_OPTIONS).action(async (_flags: unknown, self: Command) => {
    const { quiet, ...options } = resolveOptions(SANDBOX_OPTIONS, givenFlags(self, SANDBOX_OPTIONS), processEnv());
    const generated = options.apiKey === undefined;
    const candidate = { ...options, apiKey: options.apiKey ?? `sbx_${randomBytes(18).toString('base64url')}` };
    // the ranges are the sandbox's own: a problem there names the flag the user typed
    const checked = sandboxOptionsSchema.safeParse(candidate);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const key = String(issue.path[0]);
      const flag = key in SANDBOX_OPTIONS ? longFlag(SANDBOX_OPTIONS[key as keyof typeof SANDBOX_OPTIONS]) : key;
      throw new UsageError(`${flag}: ${issue.message}`);
    }

    const sandbox = await (await import('../sandbox/server.js'))
      .startSandbox({
        ...checked.data,
        onBatch: quiet ? undefined : (entry) => output.err(visible(describeBatch(entry))),
      })
      .catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') {
          const which = (error as { port?: number }).port === candidate.pagePort && candidate.pagePort !== 0 ? '--page-port' : '--port';
          const port = which === '--port' ? `port ${candidate.port} on ${candidate.host}` : `port ${candidate.pagePort} on 127.0.0.1`;
          throw new UsageError(`${port} is in use`, { suggestion: `pick another with ${which} (0 picks a free one)` });
        }
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on --host ${candidate.host}`);
        throw error;
      });

    output.out(`sandbox listening on ${sandbox.url}`);
    output.out(`API key: ${sandbox.apiKey}${generated ? ` (generated for this run; fix one with --api-key or ${SANDBOX_KEY_ENV})` : ''}`);
    output.out(`point push at it: ${BASE_URL_ENV}=${sandbox.url} ${API_KEY_ENV}=${sandbox.apiKey} ${invocation()} push ...`);
    output.out(
      `inspect (with the key in x-api-key): ${sandbox.url}/_sandbox/stats, /_sandbox/batches, /_sandbox/records/<deals|activities|account|sales-profile>?offset=0`,
    );
    output.out(`page: ${sandbox.pageUrl} (what it holds, the batches and refusals; this machine only)`);
    output.err('press Ctrl+C to stop');

    await untilInterrupted();
    await sandbox.close();
    output.err(`sandbox stopped${options.store ? `; records saved to ${options.store}` : ''}`);
  });
}
