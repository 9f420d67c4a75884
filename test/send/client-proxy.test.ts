// HTTPS_PROXY / HTTP_PROXY / NO_PROXY through undici's EnvHttpProxyAgent, and proxy credentials
// never showing in results, events or errors.
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { startClosingProxy, startProxy, type ClosingProxy, type TestProxy } from '../helpers/connect-proxy.js';
import { batch, closedAfterEach } from '../helpers/fast-client.js';

const PASSWORD = 'pr0xy-s3cret-pw';
let server: MisbehavingServer | undefined;
let proxy: TestProxy | undefined;
afterEach(async () => {
  await server?.close();
  await proxy?.close();
  server = proxy = undefined;
});
const client = closedAfterEach();
function withCreds(url: string, password = PASSWORD): string {
  return url.replace('http://', `http://batch:${encodeURIComponent(password)}@`);
}
async function outcome(p: Promise<unknown>): Promise<string> {
  const settled = await p.then(
    (r) => r,
    (e: Error) => ({ ...e, name: e.name, message: e.message, stack: e.stack }),
  );
  return JSON.stringify(settled);
}

describe('send: proxies', () => {
  it('a proxy that closes CONNECT: one tunnel attempt per attempt, a retryable network error, then gave-up', async () => {
    const closing: ClosingProxy = await startClosingProxy();
    try {
      const c = client('https://api.example.test', { env: { HTTPS_PROXY: withCreds(closing.url) }, retry: { maxAttempts: 3 } });
      const result = await c.send(batch());
      expect(result).toMatchObject({ kind: 'gave-up', attempts: 3, lastError: { code: 'PROXY_TUNNEL_CLOSED' } });
      // undici 7.30 alone made tens of thousands of CONNECTs here and never settled
      expect(closing.connects).toBe(3);
      expect(c.events.filter((e) => e.type === 'retry').map((e) => (e as { reason: string }).reason)).toEqual([
        `the proxy at ${closing.url} closed the connection before the tunnel to api.example.test:443 was set up`,
        `the proxy at ${closing.url} closed the connection before the tunnel to api.example.test:443 was set up`,
      ]);
      expect(JSON.stringify([result, c.events])).not.toContain(PASSWORD);
    } finally {
      await closing.close();
    }
  });

  it('HTTP_PROXY with credentials: plain-http targets go through a CONNECT tunnel carrying Proxy-Authorization', async () => {
    server = await startServer();
    proxy = await startProxy({ user: 'batch', password: PASSWORD });
    const c = client(server.url, { env: { HTTP_PROXY: withCreds(proxy.url) } });
    expect(await c.send(batch())).toMatchObject({ kind: 'ok', attempts: 1 });
    // what undici actually does for http:// through an http:// proxy (proxyTunnel defaults to true)
    expect(proxy.seen).toEqual([
      { mode: 'connect', target: `127.0.0.1:${server.port}`, proxyAuthorization: `Basic ${Buffer.from(`batch:${PASSWORD}`).toString('base64')}` },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['proxy-authorization']).toBeUndefined();
  });

  it('lower-case http_proxy wins, as in curl', async () => {
    server = await startServer();
    proxy = await startProxy();
    const c = client(server.url, { env: { http_proxy: proxy.url, HTTP_PROXY: 'http://127.0.0.1:1' } });
    expect(await c.send(batch())).toMatchObject({ kind: 'ok' });
    expect(proxy.seen).toHaveLength(1);
  });

  it('NO_PROXY excludes the API host: sent directly', async () => {
    server = await startServer();
    proxy = await startProxy();
    const c = client(server.url, { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(await c.send(batch())).toMatchObject({ kind: 'ok' });
    expect(proxy.seen).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('wrong proxy credentials (407) → AbortError PROXY_AUTH without the password', async () => {
    server = await startServer();
    proxy = await startProxy({ user: 'batch', password: 'the-right-one' });
    const c = client(server.url, { env: { HTTP_PROXY: withCreds(proxy.url) } });
    const text = await outcome(c.send(batch()));
    expect(text).toContain('PROXY_AUTH');
    expect(text).not.toContain(PASSWORD);
    expect(server.requests).toHaveLength(0);
  });

  it('an unreachable proxy → gave-up; no result, event or reason contains the password', async () => {
    const port = await closedPort();
    const tricky = 'p@ss:w/rd%secret';
    const c = client('http://127.0.0.1:9', { env: { HTTP_PROXY: withCreds(`http://127.0.0.1:${port}`, tricky) } });
    const result = await c.send(batch());
    expect(result).toMatchObject({ kind: 'gave-up', lastError: { code: 'ECONNREFUSED' } });
    const text = JSON.stringify({ result, events: c.events });
    for (const leak of [tricky, encodeURIComponent(tricky), Buffer.from(`batch:${tricky}`).toString('base64')]) {
      expect(text).not.toContain(leak);
    }
  });

  it('a malformed proxy URL is refused without echoing it', async () => {
    const text = await outcome(Promise.resolve().then(() => client('http://127.0.0.1:9', { env: { HTTPS_PROXY: `::${PASSWORD}::` } })));
    expect(text).toMatch(/HTTPS_PROXY is set but is not a valid URL/);
    expect(text).not.toContain(PASSWORD);
  });
});
