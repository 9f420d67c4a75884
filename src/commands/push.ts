// `batch-sync push [files…]`: read, map, validate, send in dependency order, and report every row.
import type { Command } from 'commander';
import { PUSH_OPTIONS } from '../config/options.js';
import type { Output } from '../report/output.js';
import { sandboxLines } from '../report/sandbox-lines.js';
import { openNightlySession } from '../run/nightly-session.js';
import { invocation, processEnv } from '../config/environment.js';
import type { ResolvedSettings } from '../config/settings.js';
import { BatchSyncError, EXIT, UsageError } from '../errors.js';
import type { KeptSandbox } from '../run/connect.js';
import { createCronNotifier, type CronNotifier } from '../report/notify.js';
import { visible } from '../report/terminal-text.js';
import { addOptions, givenFlags } from './add-options.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';
import { FILES_ARGUMENT, runSyncCommand, syncRequest } from './run-command.js';
import { interruptSignals, untilInterrupted } from './signals.js';

const HELP_AFTER = `
Environment:
  BATCH_SYNC_BASE_URL   the API root, when --base-url is not given
  BATCH_SYNC_API_KEY    the API key, when --api-key-file is not given
  BATCH_SYNC_ENGINE     simple, fast or auto, when --engine is not given
  BATCH_SYNC_NOTIFY_URL where to post the end-of-run summary, when --notify-url is not given
  BATCH_SYNC_PING_URL   the healthchecks-style ping URL, when --ping-url is not given

Exit codes: 0 every row accepted, 1 some rows not accepted, 2 unusable input or
options (nothing sent), 3 run aborted (key refused, API unreachable, retries
exhausted, interrupted, guard tripped), 4 another run holds the state directory.
${examples(
  ['batch-sync push --sandbox --config fixtures/crm-sales-opportunities/batch-sync.config.json', 'no account needed: the embedded sandbox'],
  ['batch-sync push fixtures/canonical/sales-profiles.csv fixtures/canonical/deals.csv --errors failed.csv', 'to $BATCH_SYNC_BASE_URL'],
  ['batch-sync push --incremental --quiet --api-key-file ~/.batch-sync-key --config fixtures/crm-sales-opportunities/batch-sync.config.json', 'from cron'],
)}`;

/** `--keep-open`: after the report, the embedded sandbox and its page serve on until Ctrl+C. */
async function serveUntilInterrupted(kept: KeptSandbox, output: Output): Promise<void> {
  output.err(`the embedded sandbox serves on; its page: ${kept.pageUrl} (press Ctrl+C to stop)`);
  await untilInterrupted();
  await kept.close();
}

export function registerPush(program: Command, output: Output, setExit: SetExit): void {
  const command = program
    .command('push')
    .description('send files to the API in dependency order and report every row')
    .addHelpText('after', HELP_AFTER)
    .argument(...FILES_ARGUMENT);
  addOptions(command, PUSH_OPTIONS).action(async (files: string[], _flags: unknown, self: Command) => {
    const given = givenFlags(self, PUSH_OPTIONS);
    const request = syncRequest(given.dryRun ? 'dry-run' : 'push', files, given);
    const signals = interruptSignals((text) => output.err(text));
    // known once the settings are: the plan and the environment may name the URLs too
    let notifier: CronNotifier | undefined;
    let kept: KeptSandbox | undefined;
    const onSettings = (settings: ResolvedSettings) => {
      if (given.keepOpen && !settings.sandbox) throw new UsageError('--keep-open goes with --sandbox: it keeps the embedded sandbox serving');
      const options = { env: request.env ?? processEnv(), dryRun: request.mode === 'dry-run' };
      notifier = createCronNotifier(settings, options, (text) => output.err(visible(text)));
    };
    const onStart = () => notifier?.start() ?? Promise.resolve();
    try {
      const keepSandbox = given.keepOpen ? (sandbox: KeptSandbox) => (kept = sandbox) : undefined;
      const environment = { signal: signals.stop, cancel: signals.cancel, openSession: openNightlySession, onSettings, onStart, keepSandbox };
      const { exitCode } = await runSyncCommand(
        request,
        output,
        environment,
        (outcome) => (outcome.sandbox ? sandboxLines(outcome.sandbox, files, outcome.inputs, invocation()) : []),
        (outcome, code) => notifier?.finish({ report: outcome.report, exitCode: code }) ?? Promise.resolve(),
      );
      setExit(exitCode);
    } catch (error) {
      await kept?.close();
      // a run that ended by an error (a lock held, an unreadable input) still tells the monitor
      const typed = error instanceof BatchSyncError ? error : undefined;
      await notifier?.finish({ exitCode: typed?.exitCode ?? EXIT.bug, errorCode: typed?.code ?? 'INTERNAL' });
      throw error;
    } finally {
      signals.dispose();
    }
    if (kept) await serveUntilInterrupted(kept, output);
  });
}
