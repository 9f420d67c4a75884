// A tiny forward proxy for tests: CONNECT tunnels and absolute-form plain-HTTP requests, optional
// Basic proxy auth. It records how each request reached it, so a test can tell which mode undici used.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer, connect as netConnect, type AddressInfo, type Socket } from 'node:net';

interface ProxiedRequest {
  mode: 'connect' | 'absolute-form';
  /** host:port for CONNECT, the absolute URL otherwise. */
  target: string;
  proxyAuthorization?: string;
}

export interface TestProxy {
  url: string;
  port: number;
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

export async function startProxy(opts: { user?: string; password?: string } = {}): Promise<TestProxy> {
  const expected = opts.user !== undefined ? `Basic ${Buffer.from(`${opts.user}:${opts.password ?? ''}`).toString('base64')}` : undefined;
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const proxyAuthorization = req.headers['proxy-authorization'];
    seen.push({ mode: 'absolute-form', target: req.url ?? '', proxyAuthorization });
    if (expected && proxyAuthorization !== expected) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const url = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    const proxyAuthorization = req.headers['proxy-authorization'];
    seen.push({ mode: 'connect', target: req.url ?? '', proxyAuthorization });
    if (expected && proxyAuthorization !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ClosingProxy {
  url: string;
  /** CONNECT requests read so far. */
  readonly connects: number;
  close(): Promise<void>;
}

/**
 * A proxy that accepts the TCP connection, reads the CONNECT request, and closes without a word
 * (a proxy that does not tunnel, or refuses the upstream). undici 7 once reconnected to it in a
 * tight loop for ever (nodejs/undici#3897).
 */
export async function startClosingProxy(): Promise<ClosingProxy> {
  let connects = 0;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      if (head.startsWith('CONNECT ')) connects++;
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connects() {
      return connects;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
