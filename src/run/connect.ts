// Where a push sends: the API at the base URL with the user's key, or an embedded sandbox started
// for this run. Returns the sender the pipeline uses; the HTTP client (undici) and the sandbox
// server are loaded only here, by runs that send.
import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import { RESOURCES, type Resource } from '../contract/resources.js';
import type { TrafficCount } from '../report/run-report.js';
import type { SandboxHeld } from '../report/sandbox-lines.js';
import type { SandboxHandle } from '../sandbox/index.js';
import { SANDBOX_DEFAULTS } from '../sandbox/options.js';
import { apiTarget } from '../config/api-key.js';
import { sendEventLine } from '../report/send-events.js';
import type { BatchSender } from '../send/dispatch.js';
import type { ResolvedSettings } from '../config/settings.js';

export interface ConnectOptions {
  /** Where the API key is read from when no --api-key-file is given; the process's by default. */
  env?: Record<string, string | undefined>;
  /** Fires after the grace period of an interrupt: requests in flight are then cancelled. */
  cancel?: AbortSignal;
  /** Retries and warnings, as lines for the user (never payload values). */
  say?(text: string, level: 'info' | 'error'): void;
  /** `push --keep-open`: the embedded sandbox starts with its page and, at close, is handed here instead of stopped. */
  keep?(sandbox: KeptSandbox): void;
}

/** An embedded sandbox left serving after its run, with its page. */
export interface KeptSandbox {
  pageUrl: string;
  close(): Promise<void>;
}

export interface Connection {
  sender: BatchSender;
  /** What the run's requests met, for the report. */
  traffic(): TrafficCount;
  /** Closes the client, and the embedded sandbox after saying what it holds. */
  close(): Promise<SandboxHeld | undefined>;
}

function held(sandbox: SandboxHandle): SandboxHeld {
  return { records: Object.fromEntries(RESOURCES.map((r) => [r, sandbox.records(r).length])) as Record<Resource, number>, batches: sandbox.batches().length };
}

export async function connect(settings: ResolvedSettings, options: ConnectOptions): Promise<Connection> {
  let baseUrl = settings.baseUrl;
  let apiKey: string;
  let sandbox: SandboxHandle | undefined;
  if (settings.sandbox) {
    const { startSandbox } = await import('../sandbox/index.js');
    // it answers in the style the run reads answers in (--answers, the plan's answers.style); a run
    // that counts with data.success needs the named style, whose success is a count
    const answers = settings.checkSuccessCount ? 'named' : settings.answerStyle;
    const page = options.keep ? { pagePort: 0 } : {};
    // it takes every body push may send (--max-body-bytes), never less than its own default
    const maxBodyBytes = Math.max(settings.maxBodyBytes, SANDBOX_DEFAULTS.maxBodyBytes);
    // it checks an activity's owner as `batch-sync sandbox` does by default (as a deal's); push holds
    // back the activities and deals whose owner this run lacks, so only --no-hold-dependents meets it
    sandbox = await startSandbox({ port: 0, apiKey: `sbx_${randomBytes(18).toString('base64url')}`, answers, maxBodyBytes, ...page });
    if (sandbox.pageUrl) options.say?.(`sandbox page: ${sandbox.pageUrl} (what it holds, refreshed while the run sends)`, 'info');
    baseUrl = sandbox.url;
    apiKey = sandbox.apiKey;
  } else {
    ({ baseUrl, apiKey } = apiTarget(settings, options.env));
  }
  // undici is loaded only by a run that sends. It parses HTTP with llhttp compiled to WebAssembly at
  // the first connection, and V8's optimising compiler made that moment the run's memory peak: for a
  // parser that reads a few thousand short answers a run, the baseline compiler is enough.
  // Compile-time only. (BENCHMARKS.md, "Figures behind code choices")
  v8.setFlagsFromString('--liftoff-only');
  const { createApiClient } = await import('../send/api-client.js');
  let client: Awaited<ReturnType<typeof createApiClient>>;
  try {
    client = createApiClient({
      baseUrl,
      apiKey,
      concurrency: settings.concurrency,
      maxConcurrency: settings.maxConcurrency,
      maxRate: settings.maxRate,
      retry: { maxAttempts: settings.retries + 1, retryOn500: settings.retryOn500, baseDelayMs: settings.retryDelayMs, maxTotalMs: settings.maxRetryTimeMs },
      timeouts: { headersMs: settings.timeoutMs, bodyMs: settings.timeoutMs, attemptMs: Math.max(settings.timeoutMs * 2, 1000) },
      caFile: settings.caFile,
      allowInsecureHttp: settings.allowInsecureHttp,
      env: settings.proxyEnv,
      tlsVerifyOffInEnv: settings.tlsVerifyOffInEnv,
      // a TLS or clear-text warning is shown even to --quiet runs; retries and waits are progress
      onEvent: (e) => {
        const { text, level } = sendEventLine(e);
        options.say?.(text, level);
      },
    });
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
  return {
    // in-flight requests get a grace period after Ctrl-C: the cancel signal fires later; the run's
    // own signal (it stopped taking batches) only keeps retries from starting
    sender: { send: (req) => client.send({ ...req, stop: req.signal, signal: options.cancel }), flow: () => client.traffic() },
    traffic: () => {
      const { requests, throttled, retries, waitMs, peakConcurrency, latencyP95Ms } = client.traffic();
      return { requests, throttled, retries, waitMs, peakConcurrency, latencyP95Ms };
    },
    close: async () => {
      // the embedded sandbox closes even when the client's close fails; what it held is read first
      let holds: SandboxHeld | undefined;
      try {
        await client.close();
      } finally {
        holds = sandbox && held(sandbox);
        if (sandbox?.pageUrl && options.keep) options.keep({ pageUrl: sandbox.pageUrl, close: sandbox.close });
        else await sandbox?.close();
      }
      return holds;
    },
  };
}
