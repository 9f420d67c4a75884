// startSandbox: a node:http server that answers the spec's eight operations from memory, started
// in-process (tests, `push --sandbox`) or by `batch-sync sandbox`. It never prints; what it did is
// read from the returned handle, the /_sandbox/ endpoints or the onBatch callback.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RESOURCE_PATHS, RESOURCES, parseResource, type Method, type Resource } from '../contract/resources.js';
import { formatProblem, toFieldProblems } from '../contract/issues.js';
import { ConfigError } from '../errors.js';
import { apiKeyChecker } from './api-key.js';
import type { BatchLogEntry } from './batch-history.js';
import { handleBatch, type BatchRouteConfig } from './batch-route.js';
import { sendRefusal } from './http-replies.js';
import { INSPECT_PREFIX, handleInspect } from './inspect-routes.js';
import { sandboxOptionsSchema, type SandboxOptions } from './options.js';
import { startPageServer, type PageServer } from './page-server.js';
import type { StoredRecord } from './record-store.js';
import { SandboxState, type Faults, type SandboxStatsView } from './sandbox-state.js';

export interface SandboxHandle {
  /** `http://host:port`, with the port actually bound (useful with port 0). */
  url: string;
  port: number;
  host: string;
  apiKey: string;
  /** The page's URL (`http://127.0.0.1:port/`), when started with `pagePort`. */
  pageUrl?: string;
  /** Resource names as the API's kinds or as the paths say them ('deals', 'account', ...). */
  records(resource: Resource | string): StoredRecord[];
  record(resource: Resource | string, externalId: string): StoredRecord | undefined;
  batches(): BatchLogEntry[];
  stats(): SandboxStatsView;
  reset(): void;
  /** Changes latency, fail rate, rate limit, capacity or an outage (`unavailable`: every batch 503) while running. */
  setFaults(change: Partial<Faults>): void;
  /** Answers the next `count` batches with `status` (default 500) whatever else is set. */
  failNext(count: number, status?: 429 | 500 | 503): void;
  /** Writes the store file now (when there is one and something changed). */
  flush(): Promise<void>;
  /** Stops accepting, lets requests in flight finish, then saves the store. */
  close(): Promise<void>;
}

const ROUTES = new Map<string, Resource>(RESOURCES.map((r) => [RESOURCE_PATHS[r], r]));
const METHODS: Record<string, Method> = { POST: 'post', PATCH: 'patch' };
// requests still running when close() is called get this long before their sockets are cut
const CLOSE_GRACE_MS = 3000;

function toResource(name: Resource | string): Resource {
  const resource = parseResource(name);
  if (!resource) throw new ConfigError(`unknown resource "${name}"`);
  return resource;
}

export async function startSandbox(options: SandboxOptions): Promise<SandboxHandle> {
  const { now = Date.now, onBatch, ...rest } = options;
  const parsed = sandboxOptionsSchema.safeParse(rest);
  if (!parsed.success) {
    throw new ConfigError(`invalid sandbox options: ${toFieldProblems(parsed.error.issues).map(formatProblem).join('; ')}`);
  }
  const opts = parsed.data;
  const state = new SandboxState(opts, now);
  await state.store.load();
  const config: BatchRouteConfig = {
    checkKey: apiKeyChecker(opts.apiKey),
    maxItems: opts.maxItems,
    maxBodyBytes: opts.maxBodyBytes,
    answers: opts.answers,
    rateLimitHeaders: opts.rateLimitHeaders,
    allowUnknownActivityOwners: opts.allowUnknownActivityOwners,
    onBatch,
  };
  const inspect = { checkKey: config.checkKey, host: opts.host };
  let closing = false;

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    // a client that keeps its connection alive learns to reconnect instead of being cut mid-request
    if (closing) res.setHeader('connection', 'close');
    const raw = req.url ?? '/';
    const query = raw.indexOf('?');
    const path = query === -1 ? raw : raw.slice(0, query);
    if (path.startsWith(INSPECT_PREFIX)) return handleInspect(req, res, path, new URLSearchParams(query === -1 ? '' : raw.slice(query + 1)), state, inspect);

    const resource = ROUTES.get(path);
    const method = METHODS[req.method ?? ''];
    let status: number;
    if (!resource) {
      status = 404;
      sendRefusal(res, 404, 'NOT_FOUND', `no operation at ${path}; the API has POST and PATCH on ${[...ROUTES.keys()].join(', ')}`);
    } else if (!method) {
      status = 404;
      sendRefusal(res, 404, 'NOT_FOUND', `${req.method} ${path} is not an operation; use POST or PATCH`);
    } else {
      status = await handleBatch(req, res, { resource, method }, state, config);
    }
    if (status) state.history.countRequest(status);
  };

  const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    route(req, res).catch((error: unknown) => {
      // a bug in the sandbox: answer 500 so the client sees it, never crash the process
      if (!res.headersSent) sendRefusal(res, 500, 'INTERNAL_ERROR', `sandbox bug: ${(error as Error)?.message ?? String(error)}`);
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let page: PageServer | undefined;
  try {
    page = opts.pagePort === undefined ? undefined : await startPageServer(state, opts.pagePort);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const hostInUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${hostInUrl}:${port}`,
    port,
    host: opts.host,
    apiKey: opts.apiKey,
    ...(page ? { pageUrl: page.url } : {}),
    records: (resource) => state.records(toResource(resource)),
    record: (resource, externalId) => state.record(toResource(resource), externalId),
    batches: () => state.batches(),
    stats: () => state.stats(),
    reset: () => state.reset(),
    setFaults: (change) => state.setFaults(change),
    failNext: (count, status) => state.failNext(count, status),
    flush: () => state.store.flush(),
    close() {
      closed ??= (async () => {
        closing = true;
        const pageClosed = page?.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
        await stopped;
        clearTimeout(cut);
        await pageClosed;
        await state.store.flush();
      })();
      return closed;
    },
  };
}
