// `batch-sync push [files…]`: read, map, validate, send in dependency order, and report every row.
import { randomBytes } from 'node:crypto';
import { Option, type Command } from 'commander';
import { METHODS, RESOURCES } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { Output } from '../report/output.js';
import type { RunReport } from '../report/run-report.js';
import { connect } from '../run/connect.js';
import { BASE_URL_ENV, DEFAULTS } from '../run/settings.js';
import { ANSWER_STYLE_NAMES } from '../send/answers.js';
import type { SyncEnvironment } from '../run/sync.js';
import type { SandboxHandle } from '../sandbox/index.js';
import { openNightlySession } from '../state/nightly-session.js';
import { addInputOptions } from './input-options.js';
import type { SetExit } from './index.js';
import { runSyncCommand, syncRequest, type CommonFlags } from './run-command.js';
import { interruptSignals } from './signals.js';

interface PushFlags extends CommonFlags {
  baseUrl?: string;
  apiKeyFile?: string;
  source?: string;
  method?: string;
  batchSize?: string;
  maxBodyBytes?: string;
  concurrency?: string;
  retries?: string;
  retryOn500?: boolean;
  retryDelay?: string;
  maxRetryTime?: string;
  timeout?: string;
  holdDependents: boolean;
  checkSuccessCount: boolean;
  answers?: string;
  isolateUnattributed?: boolean;
  isolationBudget?: string;
  dryRun?: boolean;
  sandbox?: boolean;
  caFile?: string;
  allowInsecureHttp?: boolean;
  incremental?: boolean;
  full?: boolean;
  stateDir?: string;
  reportDir?: string;
  keepReports?: string;
  maxRejections?: string;
  maxRejectionRate?: string;
}

export function registerPush(program: Command, output: Output, setExit: SetExit): void {
  addInputOptions(
    program
      .command('push')
      .description('send files to the API in dependency order and report every row')
      .addHelpText(
        'after',
        `
Environment:
  BATCH_SYNC_BASE_URL   the API root, when --base-url is not given
  BATCH_SYNC_API_KEY    the API key, when --api-key-file is not given
  BATCH_SYNC_ENGINE     simple, fast or auto, when --engine is not given

Exit codes: 0 every row accepted, 1 some rows not accepted, 2 unusable input or
options (nothing sent), 3 run aborted (key refused, API unreachable, retries
exhausted, interrupted, guard tripped), 4 another run holds the state directory.

Examples:
  batch-sync push --sandbox --config fixtures/crm-sales-opportunities/batch-sync.config.json
  batch-sync push sales-profiles.csv deals.csv --errors failed.csv
  batch-sync push --incremental --quiet --api-key-file ~/.batch-sync-key`,
      ),
  )
    .option('--base-url <url>', `API root, e.g. https://api.example.com (or $${BASE_URL_ENV}, or the plan's baseUrl)`)
    .option('--api-key-file <file>', 'file holding the API key, mode 600 (otherwise $BATCH_SYNC_API_KEY; never a flag value)')
    .option('--source <name>', 'the envelope\'s source: the name of the sending system (default: the plan\'s, else "batch-sync")')
    .addOption(new Option('--method <method>', 'operation to use: post (create or replace) or patch (update)').choices(METHODS))
    .option('--batch-size <n>', 'items per batch (default 100)')
    .option('--max-body-bytes <n>', 'largest request body; batches are cut to fit (default 5 MiB)')
    .option('--concurrency <n>', 'batches in flight within a kind (default 4)')
    .option('--retries <n>', 'retries of a batch after a transient failure (default 5)')
    .option('--retry-on-500', 'also retry HTTP 500 (off: a 500 may mean a half-applied batch)')
    .option('--retry-delay <ms>', 'first backoff before a retry; doubles each time, with jitter (default 500)')
    .option('--max-retry-time <ms>', 'no new attempt of a batch after this long (default 300000)')
    .option('--timeout <ms>', 'wait this long for response headers and between body chunks (default 60000)')
    .option('--no-hold-dependents', 'send deals even when their owner or agent sales profile failed in this run')
    .addOption(
      new Option('--answers <style>', 'how the API answers: documented (success a value, details may name no row; the default) or named (success counts accepted rows, every detail names its row); with --sandbox, the sandbox answers so too').choices(ANSWER_STYLE_NAMES),
    )
    .option('--no-check-success-count', 'data.success is informational, not the count of accepted items (plan: answers.successIsCount false)')
    .option('--isolate-unattributed', 'when an answer\'s errors name no row, resend that batch split until each error is pinned to one row; it RESENDS rows the server may already have applied: use it only when POST/PATCH replace by externalId')
    .option('--isolation-budget <n>', `most extra requests --isolate-unattributed sends in a run; past it rows stay UNVERIFIED (default ${DEFAULTS.isolationBudget})`)
    .option('--errors <file.csv|dir>', 'write the rows not accepted, with their original columns, to a CSV to fix and push again')
    .option('--dry-run', 'do everything but send; list the batches that would go (id, items, bytes) in the report')
    .option('--emit <file>', 'with --dry-run: write the batch envelopes here, one per line; "-": to stdout (the report then goes to stderr)')
    .option('--sandbox', 'push into an embedded sandbox API started for this run (no account needed)')
    .option('--ca-file <file>', 'PEM file of a private certificate authority to trust')
    .option('--allow-insecure-http', 'allow http:// to a host other than this machine (the key travels in clear text)')
    .option('--incremental', 'send only rows new or changed since the server last accepted them (state in --state-dir)')
    .option('--full', 'send every row this once, ignoring incremental mode; what is accepted is still recorded')
    .option('--state-dir <dir>', 'where the state, the lock and reports live (default: .batch-sync beside the plan, else here)')
    .option('--report-dir <dir>', 'write each run\'s JSON report, summary and errors CSV under <dir>/<run id>/ (default: <state-dir>/reports)')
    .option('--keep-reports <n>', 'run folders kept in --report-dir; older ones are deleted (default 30)')
    .option('--max-rejections <n>', 'stop the run (exit 3) once more than n rows were invalid or rejected')
    .option('--max-rejection-rate <r>', 'stop the run (exit 3) once more than this share (0..1) of rows were invalid or rejected, judged from 100 rows on')
    .option('-q, --quiet', 'print only the report and errors')
    .option('-v, --verbose', 'print retries and warnings as they happen (field names and row numbers, never values)')
    .action(async (files: string[], flags: PushFlags, command: Command) => {
      const given = (name: string) => command.getOptionValueSource(name) === 'cli';
      if (flags.emit && !flags.dryRun) throw new UsageError('--emit goes with --dry-run (push sends the batches; validate --emit writes them)');
      if (flags.sandbox && (flags.baseUrl || flags.apiKeyFile)) throw new UsageError('--sandbox starts its own API: drop --base-url and --api-key-file');
      const mode = flags.dryRun ? 'dry-run' : 'push';
      const request = syncRequest(mode, files, flags, {
        baseUrl: flags.baseUrl,
        source: flags.source,
        method: flags.method,
        batchSize: flags.batchSize,
        maxBodyBytes: flags.maxBodyBytes,
        concurrency: flags.concurrency,
        retries: flags.retries,
        retryOn500: given('retryOn500') ? true : undefined,
        retryDelayMs: flags.retryDelay,
        maxRetryTimeMs: flags.maxRetryTime,
        timeoutMs: flags.timeout,
        holdDependents: given('holdDependents') ? flags.holdDependents : undefined,
        checkSuccessCount: given('checkSuccessCount') ? flags.checkSuccessCount : undefined,
        answers: flags.answers,
        isolateUnattributed: given('isolateUnattributed') ? true : undefined,
        isolationBudget: flags.isolationBudget,
        incremental: flags.incremental,
        full: flags.full,
        stateDir: flags.stateDir,
        reportDir: flags.reportDir,
        keepReports: flags.keepReports,
        maxRejections: flags.maxRejections,
        maxRejectionRate: flags.maxRejectionRate,
      });
      const signals = interruptSignals((text) => output.err(text));
      let sandbox: SandboxHandle | undefined;
      const environment: SyncEnvironment = {
        signal: signals.stop,
        openSession: openNightlySession,
        // each embedded sandbox starts empty: its state must never make a rerun skip rows
        target: flags.sandbox ? `embedded-sandbox-${randomBytes(6).toString('hex')}` : undefined,
        async connect(settings, _plan, say) {
          const connection = await connect(settings, {
            sandbox: flags.sandbox,
            apiKeyFile: flags.apiKeyFile,
            caFile: flags.caFile,
            allowInsecureHttp: flags.allowInsecureHttp,
            cancel: signals.cancel,
            say,
          });
          sandbox = connection.sandbox;
          return connection;
        },
      };
      try {
        const { exitCode } = await runSyncCommand(request, flags, output, environment, (outcome) => (sandbox ? sandboxLines(sandbox, outcome.report, files) : []));
        setExit(exitCode);
      } finally {
        signals.dispose();
        await sandbox?.close();
      }
    });
}

/** What the embedded sandbox holds after the run, and how to fix a run it refused for want of owners. */
function sandboxLines(sandbox: SandboxHandle, report: RunReport, files: readonly string[]): string[] {
  const plural = (r: string, n: number) => (n === 1 ? r : r === 'activity' ? 'activities' : `${r}s`);
  const held = RESOURCES.map((r) => `${sandbox.records(r).length} ${plural(r, sandbox.records(r).length)}`).join(', ');
  const received = sandbox.batches().length;
  const lines: string[] = [];
  if (ownersMissing(report)) {
    const example = files.length > 0 ? `batch-sync push --sandbox sales-profiles.csv ${files.join(' ')}` : 'add the sales-profiles file as a job of the plan';
    const ids = report.ownersNotInRun === 1 ? '1 owner/agent id' : `${report.ownersNotInRun} owner/agent ids`;
    lines.push(
      `The embedded sandbox starts empty: ${ids} of this run's deals are in none of its sales profiles, and it refuses a deal whose owner or agent it does not hold.`,
      `Push the sales profiles in the same run, e.g.: ${example} (they are sent first, whatever the order).`,
    );
  }
  lines.push(`The embedded sandbox now holds: ${held} (${received} ${received === 1 ? 'batch' : 'batches'} received).`);
  return lines;
}

/**
 * The embedded sandbox refused (or would not confirm) rows, and the run's deals name owners that no
 * sales profile of the run carries: the sandbox, empty at start, cannot hold them. Judged from the
 * run's own data, not the server's wording, which names no item in the documented answer style.
 */
function ownersMissing(report: RunReport): boolean {
  const refused = report.groups.some((g) => g.outcome === 'rejected' || (g.outcome === 'skipped' && g.label.startsWith('UNVERIFIED')));
  return refused && report.ownersNotInRun > 0;
}
