// Checks the base URL before any key is sent to it: scheme, clear-text http, and the common
// mistake of pasting an endpoint instead of the API's root.
import { ConfigError } from '../errors.js';
import { redact } from '../redact.js';

export interface ApiTarget {
  /** scheme://host[:port], what undici dispatches to. */
  origin: string;
  /** Path prefix under the origin, without a trailing slash ('' for the root). */
  basePath: string;
  /** Set when http:// to a non-loopback host was allowed explicitly. */
  insecure: boolean;
}

const SUGGEST_ROOT = 'give the API root, e.g. --base-url https://api.example.com (batch-sync adds /v2/integration/...)';

/**
 * An `@` anywhere in a base URL stands for userinfo: an API root has none, and a credential whose
 * characters end the authority early (`/`, `?`, `#`, `\\`) would otherwise parse as a host name that
 * every later message shows. Refused before the URL is parsed, with nothing of it echoed.
 */
const CREDENTIALS = new ConfigError('the base URL must not contain credentials (user:password@)', {
  suggestion: 'the API key goes in BATCH_SYNC_API_KEY or --api-key-file',
});

export function parseBaseUrl(baseUrl: string, allowInsecureHttp = false): ApiTarget {
  if (baseUrl.includes('@')) throw CREDENTIALS;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    // a query or fragment may hold a token (?apikey=…): never echoed
    throw new ConfigError(`the base URL "${redact(withoutCredentials(baseUrl.trim()))}" is not a valid URL`, { suggestion: SUGGEST_ROOT });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`the base URL must start with https:// (got ${url.protocol}//)`, { suggestion: SUGGEST_ROOT });
  }
  // undici would drop them silently; and they would end up in logs
  if (url.username || url.password) throw CREDENTIALS;
  if (url.search || url.hash) {
    throw new ConfigError(
      `the base URL must not have a query or fragment: ${redact(`${url.origin}${url.pathname}`)}${url.search ? '?…' : ''}${url.hash ? '#…' : ''}`,
      {
        suggestion: `${SUGGEST_ROOT}; a token in the URL would be sent to every proxy and log on the way: the key goes in BATCH_SYNC_API_KEY or --api-key-file`,
      },
    );
  }
  const basePath = url.pathname.replace(/\/+$/, '');
  if (/\/v2(\/|$)/.test(basePath)) {
    throw new ConfigError(`the base URL ${url.origin}${basePath} already contains the API's /v2 path`, {
      suggestion: SUGGEST_ROOT,
    });
  }
  let insecure = false;
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    if (!allowInsecureHttp) {
      throw new ConfigError(`refusing to send the API key in clear text to ${url.origin} (http://, not a loopback host)`, {
        suggestion: 'use https://, or pass --allow-insecure-http if this network is trusted',
      });
    }
    insecure = true;
  }
  return { origin: url.origin, basePath, insecure };
}

/**
 * A URL as it may be shown: without what may hold a secret. Everything up to the last `@` (userinfo,
 * however its characters split the authority) becomes `…@`, and the query or fragment `?…`/`#…`.
 */
export function withoutCredentials(text: string): string {
  const at = text.lastIndexOf('@');
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  const rest = at < 0 ? text.slice(scheme.length) : `…@${text.slice(at + 1)}`;
  const cut = rest.search(/[?#]/);
  return scheme + (cut < 0 ? rest : `${rest.slice(0, cut)}${rest[cut]}…`);
}

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
