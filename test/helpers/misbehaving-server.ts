// A local HTTP server that answers each request by a script: statuses, headers, bodies, delays,
// bytes dripped slowly, sockets destroyed mid-body, redirects. It records every request it receives,
// so tests can assert on what actually went over the wire (and what did not).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface Step {
  status?: number;
  headers?: Record<string, string>;
  /** String or object (sent as JSON). */
  body?: string | object;
  /** Wait before sending the status line. */
  delayMs?: number;
  /** Send the body in pieces of `bytes`, `everyMs` apart. */
  drip?: { bytes: number; everyMs: number };
  /** Close the socket without any response. */
  drop?: boolean;
  /** Announce the full body length, send this many bytes of it, then destroy the socket. */
  cutAfterBytes?: number;
  /** Build the response from the request (echo servers). */
  respond?: (req: RecordedRequest) => Omit<Step, 'respond'>;
}

export const OK_BODY = { data: { code: 200, success: 1, error: [] }, status: 'SUCCESS' };

export interface MisbehavingServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Most requests being answered at the same time. */
  readonly maxInFlight: number;
  /** Steps used in order, one per request; after the last, `fallback` answers. */
  script(steps: Step[], fallback?: Step): void;
  close(): Promise<void>;
}

export async function startServer(steps: Step[] = [], fallback: Step = { status: 200, body: OK_BODY }): Promise<MisbehavingServer> {
  let queue = [...steps];
  let rest = fallback;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      requests.push(recorded);
      const step = queue.shift() ?? rest;
      void answer(step.respond ? step.respond(recorded) : step, res);
    });
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    script(next, fallbackStep) {
      queue = [...next];
      if (fallbackStep) rest = fallbackStep;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function answer(step: Step, res: ServerResponse): Promise<void> {
  if (step.delayMs) await wait(step.delayMs);
  if (res.destroyed) return;
  if (step.drop) {
    res.socket?.destroy();
    return;
  }
  const body = step.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof step.body === 'string' ? step.body : JSON.stringify(step.body));
  const contentType = typeof step.body === 'object' ? 'application/json' : 'text/plain';
  res.writeHead(step.status ?? 200, { 'content-type': contentType, 'content-length': String(body.length), ...step.headers });
  if (step.cutAfterBytes !== undefined) {
    res.write(body.subarray(0, step.cutAfterBytes));
    await wait(10);
    res.socket?.destroy();
    return;
  }
  if (step.drip) {
    res.flushHeaders();
    for (let i = 0; i < body.length && !res.destroyed; i += step.drip.bytes) {
      res.write(body.subarray(i, i + step.drip.bytes));
      await wait(step.drip.everyMs);
    }
    if (!res.destroyed) res.end();
    return;
  }
  res.end(body);
}

function wait(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
