// Endpoints outside the spec's paths, for tests and curious humans: what the sandbox holds and what
// it was sent. They sit on the API's port, which `--host 0.0.0.0` opens to the network, so they are
// guarded as the API is and bounded as the page is (docs/sandbox.md, "Inspection endpoints"):
// - the API's key: a missing or wrong x-api-key gets the API's own 401 (reset included: a custom
//   header also means no web page can send it cross-origin without a preflight we never answer);
// - a Host check: only a name that cannot be rebound (an IP address, localhost) or the --host name,
//   so a page whose own name resolves to this machine cannot read them through a browser;
// - records in pages: 100 by default, 1,000 at most, and no more than 10 MiB of records a page.
// They are never rate limited and not counted in the stats.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { parseResource, type Resource } from '../contract/resources.js';
import { sendJson, sendRefusal, sendUnauthorized } from './http-replies.js';
import type { SandboxState } from './sandbox-state.js';

export const INSPECT_PREFIX = '/_sandbox/';

const RECORDS_PAGE = { default: 100, max: 1000, maxBytes: 10 * 1024 * 1024 } as const;

export interface InspectConfig {
  checkKey: (provided: string | string[] | undefined) => boolean;
  /** The host the API listens on, as given: a Host naming it is this machine's too. */
  host: string;
}

export function handleInspect(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  params: URLSearchParams,
  state: SandboxState,
  config: InspectConfig,
): void {
  const host = hostName(req.headers.host ?? '');
  if (!isIP(host) && host !== 'localhost' && !host.endsWith('.localhost') && host !== config.host.toLowerCase()) {
    return sendRefusal(
      res,
      403,
      'FORBIDDEN',
      `the /_sandbox/ endpoints answer only a Host that is an IP address, localhost or --host ${config.host}, not ${JSON.stringify(req.headers.host ?? '')}`,
    );
  }
  if (!config.checkKey(req.headers['x-api-key'])) return sendUnauthorized(res);

  const rest = path.slice(INSPECT_PREFIX.length);
  const method = req.method ?? 'GET';
  if (method === 'GET' && rest.startsWith('records/')) {
    const name = safeDecode(rest.slice('records/'.length));
    const resource = parseResource(name);
    if (!resource) return sendRefusal(res, 404, 'NOT_FOUND', `unknown resource "${name}"; use deals, activities, account or sales-profile`);
    return sendRecordsPage(res, state, resource, params);
  }
  if (method === 'GET' && rest === 'batches') return sendJson(res, 200, { batches: state.batches() });
  if (method === 'GET' && rest === 'stats') return sendJson(res, 200, state.stats());
  if (method === 'POST' && rest === 'reset') {
    state.reset();
    return sendJson(res, 200, { reset: true });
  }
  sendRefusal(
    res,
    404,
    'NOT_FOUND',
    `${method} ${path} is not a sandbox endpoint; try GET /_sandbox/records/<resource>, /_sandbox/batches, /_sandbox/stats or POST /_sandbox/reset`,
  );
}

/** The name in a Host header, lower case, without its port or an IPv6 address's brackets. */
function hostName(header: string): string {
  const name = header.startsWith('[') ? header.slice(1, header.indexOf(']')) : header.replace(/:\d*$/, '');
  return name.toLowerCase();
}

/** A query parameter as a whole number in a range; undefined when absent, a problem when not one. */
function wholeNumber(params: URLSearchParams, name: string, min: number, max: number, fallback: number): number | string {
  const text = params.get(name);
  if (text === null) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min)
    return `${name}: a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, got ${JSON.stringify(text)}`;
  if (n > max) return `${name}: at most ${max} records a page, got ${n}; page on with offset`;
  return n;
}

/**
 * `limit` records from `offset` in the store's order (the order they were first created), cut
 * short before the one that would take the page past 10 MiB (the first always comes); `nextOffset`
 * is where the next page starts, null after the last.
 */
function sendRecordsPage(res: ServerResponse, state: SandboxState, resource: Resource, params: URLSearchParams): void {
  const limit = wholeNumber(params, 'limit', 1, RECORDS_PAGE.max, RECORDS_PAGE.default);
  const offset = wholeNumber(params, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
  for (const problem of [limit, offset]) if (typeof problem === 'string') return sendRefusal(res, 400, 'BAD_REQUEST', problem);
  const from = offset as number;
  const map = state.store.map(resource);
  const texts: string[] = [];
  let bytes = 0;
  let at = 0;
  let next: number | null = null;
  for (const record of map.values()) {
    if (at++ < from) continue;
    if (texts.length === limit) {
      next = at - 1;
      break;
    }
    const text = JSON.stringify(record);
    const size = Buffer.byteLength(text);
    if (texts.length > 0 && bytes + size > RECORDS_PAGE.maxBytes) {
      next = at - 1;
      break;
    }
    texts.push(text);
    bytes += size;
  }
  const head = JSON.stringify({ resource, total: map.size, offset: from, limit, nextOffset: next });
  const body = `${head.slice(0, -1)},"records":[${texts.join(',')}]}`;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
