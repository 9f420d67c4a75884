// An HTTP status (other than 2xx) → what the client does with it. Pure; the one table of statuses.
import { AbortError } from '../errors.js';
import { redact } from '../redact.js';

export type StatusDisposition =
  | { action: 'bad-request' }
  | { action: 'too-large' }
  | { action: 'retry' }
  | { action: 'stop'; reason: string }
  | { action: 'abort'; error: AbortError };

export interface StatusContext {
  status: number;
  /** The full URL the request went to (no credentials: the key travels in a header). */
  url: string;
  location?: string;
  retryOn500: boolean;
}

export function classifyStatus(ctx: StatusContext): StatusDisposition {
  const { status, url } = ctx;
  if (status >= 300 && status < 400) {
    const to = ctx.location ? redact(ctx.location) : '(no Location header)';
    return {
      action: 'abort',
      error: new AbortError('REDIRECT', `the API answered ${status} redirect to ${to}; batch-sync never follows redirects with your key`, {
        suggestion: 'set --base-url to the final address',
      }),
    };
  }
  switch (status) {
    case 400:
    case 422:
      return { action: 'bad-request' };
    case 413:
      return { action: 'too-large' };
    case 401:
      return {
        action: 'abort',
        error: new AbortError('AUTH', `the API refused the key (401 Unauthorized) at ${url}`, {
          suggestion: 'check BATCH_SYNC_API_KEY / --api-key-file, and that the key belongs to this base URL',
        }),
      };
    case 403:
      return {
        action: 'abort',
        error: new AbortError('FORBIDDEN', `the API accepted the key but forbids this operation (403 Forbidden) at ${url}`, {
          suggestion: "check the key's permissions for this resource with the API's owner",
        }),
      };
    case 404:
      return {
        action: 'abort',
        error: new AbortError('NOT_FOUND', `the API answered 404 Not Found for ${url}`, {
          suggestion: "--base-url should be the API's root, without /v2/integration/... (batch-sync appends the path); check the host and any path prefix",
        }),
      };
    case 407:
      return {
        action: 'abort',
        error: new AbortError('PROXY_AUTH', 'the proxy refused our credentials (407 Proxy Authentication Required)', {
          suggestion: 'check the user and password in HTTPS_PROXY / HTTP_PROXY',
        }),
      };
    case 408:
    case 429:
    case 502:
    case 503:
    case 504:
      return { action: 'retry' };
    case 500:
      return ctx.retryOn500
        ? { action: 'retry' }
        : { action: 'stop', reason: 'the API answered 500 (not retried: the batch may be partly applied; retryOn500 is off)' };
    default:
      return { action: 'stop', reason: `the API answered ${status}, which batch-sync does not retry` };
  }
}
