// A thrown network/undici error → retry, abort the run, or stop this batch. Pure.
import { AbortError, errorMessage } from '../errors.js';
import { fdLimitMessage } from '../fd-limit.js';
import { redact } from '../redact.js';
import type { AttemptFailure } from './types.js';

/**
 * Transient by nature: the network, the server process or a timer, not our request. ENOTFOUND is
 * deliberately absent: getaddrinfo reports a temporary resolver failure as EAI_AGAIN, so ENOTFOUND
 * is an authoritative "no such host" (usually a typo in --base-url), and retrying it for five
 * minutes would only hide that.
 */
const RETRYABLE = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET', // "other side closed": dropped before or in the middle of the response
  'PROXY_TUNNEL_CLOSED', // the proxy closed the connection instead of answering CONNECT (dispatcher.ts)
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', // body cut short
  'ATTEMPT_TIMEOUT',
]);

// UND_ERR_PRX_TLS: undici's wrapper for a certificate name mismatch behind a proxy
const TLS_CODE = /^(CERT_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|ERR_TLS_|ERR_SSL_|ERR_OSSL_|UND_ERR_PRX_TLS$)/;

/** Failures that happen before a request can reach the API: no connection, no route, no proxy tunnel. */
const NEVER_REACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'PROXY_TUNNEL',
  'PROXY_TUNNEL_CLOSED',
]);

/**
 * Whether the server may have applied a batch whose attempt failed this way. Only a request that
 * never reached it (refused connection, DNS, connect timeout, no route, no proxy tunnel) or that it
 * answered with a refusal that applies nothing (408, 429, 503, or another 4xx) is certainly not
 * applied; a 5xx, a reset or a timeout after the request was written may have been. Pure.
 */
export function mayHaveApplied(failure: AttemptFailure): boolean {
  if (NEVER_REACHED.has(failure.code)) return false;
  return failure.status === undefined || (failure.status >= 500 && failure.status !== 503);
}

export type ErrorDisposition =
  | { action: 'retry'; failure: AttemptFailure }
  | { action: 'stop'; failure: AttemptFailure }
  | { action: 'abort'; error: AbortError };

function errorCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return 'UNKNOWN';
}

function failureOf(err: unknown): AttemptFailure {
  const code = errorCode(err);
  const message = errorMessage(err);
  return { code, message: redact(message || code) };
}

export function classifyError(err: unknown, origin: string): ErrorDisposition {
  const failure = failureOf(err);
  const { code, message } = failure;
  const proxyStatus = /Proxy response \((\d{3})\)/.exec(message)?.[1];
  if (proxyStatus) {
    if (proxyStatus === '407') {
      return {
        action: 'abort',
        error: new AbortError('PROXY_AUTH', 'the proxy refused our credentials (407 Proxy Authentication Required)', {
          suggestion: 'check the user and password in HTTPS_PROXY / HTTP_PROXY',
        }),
      };
    }
    return { action: 'retry', failure: { ...failure, code: 'PROXY_TUNNEL', status: Number(proxyStatus) } };
  }
  if (RETRYABLE.has(code)) return { action: 'retry', failure };
  // out of file descriptors: every other connection would fail the same way, and waiting frees none
  const fdLimit = fdLimitMessage(err, `while sending to ${origin}`);
  if (fdLimit) return { action: 'abort', error: new AbortError('FD_LIMIT', fdLimit) };
  if (code === 'ENOTFOUND') {
    return {
      action: 'abort',
      error: new AbortError('DNS', `the host of ${origin} does not resolve (ENOTFOUND)`, {
        suggestion: 'check the host name in --base-url (or your DNS / proxy settings)',
      }),
    };
  }
  if (TLS_CODE.test(code)) {
    return {
      action: 'abort',
      error: new AbortError('TLS', `the TLS connection to ${origin} failed: ${message} (${code})`, {
        suggestion: 'if the API uses a private CA, pass its certificate with --ca-file; batch-sync never disables verification',
      }),
    };
  }
  return { action: 'stop', failure };
}
