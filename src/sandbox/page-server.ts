// The sandbox's page on a port of its own, bound to 127.0.0.1 only: the page and the JSON it
// refreshes from (page-data.ts). Read-only and keyless by design: only this machine reaches it, it
// changes nothing, and it never sees the API key (the state it reads holds none). A request naming
// any other host (a DNS-rebinding page that resolves its own name to 127.0.0.1) is refused, so no
// web site a person visits can read the sandbox's data through the browser.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseResource } from '../contract/resources.js';
import { pagePolicy } from '../util/html-page.js';
import { sendJson, sendRefusal } from './http-replies.js';
import { batchesPage, pageSummary, recordsPage, recordText, refusalsPage } from './page-data.js';
import { sandboxPage } from './page-html.js';
import type { SandboxState } from './sandbox-state.js';

const PAGE_HOST = '127.0.0.1';

export interface PageServer {
  /** `http://127.0.0.1:port/`. */
  url: string;
  close(): Promise<void>;
}

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

function answer(req: IncomingMessage, res: ServerResponse, state: SandboxState, port: number): void {
  const host = req.headers.host ?? '';
  if (host !== `${PAGE_HOST}:${port}` && host !== `localhost:${port}`) {
    return sendRefusal(res, 403, 'FORBIDDEN', `the sandbox's page answers at http://${PAGE_HOST}:${port}/ only`, HEADERS);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendRefusal(res, 404, 'NOT_FOUND', 'the sandbox page is read-only: GET only', HEADERS);
  const url = new URL(req.url ?? '/', `http://${host}`);
  const q = url.searchParams;
  if (url.pathname === '/') {
    const { html, parts } = sandboxPage(pageSummary(state));
    res.writeHead(200, {
      ...HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(html)),
      // as the page's own meta element says, plus what only a header can say
      'content-security-policy': `${pagePolicy(parts)}; frame-ancestors 'none'`,
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  if (url.pathname === '/data/summary') return sendJson(res, 200, pageSummary(state), HEADERS);
  if (url.pathname === '/data/batches') return sendJson(res, 200, batchesPage(state, q.get('page')), HEADERS);
  if (url.pathname === '/data/refusals') return sendJson(res, 200, refusalsPage(state, q.get('page')), HEADERS);
  if (url.pathname === '/data/records' || url.pathname === '/data/record') {
    const resource = parseResource(q.get('resource') ?? '');
    if (!resource) return sendRefusal(res, 404, 'NOT_FOUND', 'unknown resource; use deal, activity, account or sales-profile', HEADERS);
    if (url.pathname === '/data/records') return sendJson(res, 200, recordsPage(state, resource, q.get('q') ?? '', q.get('page')), HEADERS);
    const found = recordText(state, resource, q.get('id') ?? '');
    return found ? sendJson(res, 200, found, HEADERS) : sendRefusal(res, 404, 'NOT_FOUND', `no ${resource} with that externalId`, HEADERS);
  }
  sendRefusal(res, 404, 'NOT_FOUND', 'not part of the sandbox page', HEADERS);
}

/** Starts the page's server on `port` (0: a free one) of 127.0.0.1, whatever host the API listens on. */
export async function startPageServer(state: SandboxState, port: number): Promise<PageServer> {
  let bound = 0;
  const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    try {
      answer(req, res, state, bound);
    } catch (error) {
      if (!res.headersSent) sendRefusal(res, 500, 'INTERNAL_ERROR', `sandbox page bug: ${(error as Error)?.message ?? String(error)}`);
      else res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, PAGE_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${PAGE_HOST}:${bound}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // the page polls on a kept-alive connection: cut it, there is nothing to finish
        server.closeAllConnections();
      }),
  };
}
