// One bounded request to a notification endpoint (a chat webhook, a healthchecks ping): never the API,
// never its key. Each attempt has 5 s in all to answer; its status is the answer, and the body is not
// read. A network failure, a timeout, a 429 or a 5xx is tried once more. It never throws: the caller
// logs what went wrong, and the run's exit code stays its own.
import { addSecret } from '../redact.js';

const WEBHOOK_TIMEOUT_MS = 5_000;

export interface WebhookOptions {
  /** The proxy variables (HTTPS_PROXY, NO_PROXY), as for the API. */
  env: Record<string, string | undefined>;
  timeoutMs?: number;
  retries?: number;
}

export type WebhookResult = { ok: true; status: number } | { ok: false; reason: string };

/**
 * How a notification URL is named in logs: its origin only. A webhook's path is its credential
 * (Slack's /services/T…/B…/secret, a healthchecks UUID): it is also registered as a secret, so
 * the redactor masks it wherever else it might be printed.
 */
export function shownUrl(url: string): string {
  const u = new URL(url);
  const secret = `${u.pathname}${u.search}`;
  addSecret(secret.length > 1 ? secret : undefined);
  for (const part of secret.split(/[/?&=]/)) if (part.length >= 16) addSecret(part);
  addSecret(u.password || undefined);
  return secret.length > 1 ? `${u.protocol}//${u.host}/…` : `${u.protocol}//${u.host}`;
}

/**
 * `https://user:pw@host/…` as the URL and the Basic authorization it stands for: undici would drop
 * the userinfo without a word, and a webhook behind Basic auth would answer 401 with nobody told why.
 */
function withoutUserinfo(url: string): { target: string; authorization?: string } {
  const u = new URL(url);
  if (!u.username && !u.password) return { target: url };
  const credentials = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  const encoded = Buffer.from(credentials).toString('base64');
  addSecret(credentials);
  addSecret(encoded);
  u.username = '';
  u.password = '';
  return { target: u.href, authorization: `Basic ${encoded}` };
}

async function attempt(url: string, body: string, options: WebhookOptions): Promise<WebhookResult & { retry?: boolean }> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  // undici is loaded only when a notification is sent: every command imports this module, and
  // undici is ~11 MB resident (run/connect.ts loads the API client the same way)
  const [{ request }, { createDispatcher }] = await Promise.all([import('undici'), import('./dispatcher.js')]);
  const dispatcher = createDispatcher({ concurrency: 1, connectTimeoutMs: timeoutMs, env: options.env });
  const { target, authorization } = withoutUserinfo(url);
  try {
    const res = await request(target, {
      method: 'POST',
      dispatcher,
      body,
      headers: {
        'content-type': body.startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8',
        'user-agent': 'batch-sync',
        ...(authorization && { authorization }),
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // the status is the answer: its body is not waited for (one dripped slowly held each call until
    // the timeout); the abort this makes of the body is ours, not an error
    res.body.on('error', () => undefined).destroy();
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode };
    return { ok: false, reason: `answered HTTP ${res.statusCode}`, retry: res.statusCode === 429 || res.statusCode >= 500 };
  } catch (error) {
    const e = error as Error & { code?: string };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /TIMEOUT/.test(e.code ?? '');
    return { ok: false, reason: timedOut ? `no answer within ${timeoutMs / 1000} s` : `could not be reached (${e.code ?? e.name})`, retry: true };
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

/** POSTs `body` (JSON or text); one retry (`retries`) after a failure that may pass. */
export async function postWebhook(url: string, body: string, options: WebhookOptions): Promise<WebhookResult> {
  const tries = 1 + (options.retries ?? 1);
  let last: WebhookResult = { ok: false, reason: 'not sent' };
  for (let i = 0; i < tries; i++) {
    const { retry, ...result } = await attempt(url, body, options);
    if (result.ok || !retry) return result;
    last = result;
  }
  return last.ok ? last : { ok: false, reason: `${last.reason} (tried ${tries} times)` };
}
