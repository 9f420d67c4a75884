// TLS over a real local HTTPS server with a self-signed certificate (test/send/fixtures, test only):
// refused by default, accepted with caFile, and NODE_TLS_REJECT_UNAUTHORIZED=0 does not switch it off.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { networkEnv } from '../../src/config/network-env.js';
import { AbortError } from '../../src/errors.js';
import { startProxy } from '../helpers/connect-proxy.js';
import { OK_BODY } from '../helpers/misbehaving-server.js';
import { batch, closedAfterEach } from '../helpers/fast-client.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const CA_FILE = fixture('test-only-cert.pem');
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer({ cert: readFileSync(CA_FILE), key: readFileSync(fixture('test-only-key.pem')) }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(OK_BODY)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(async () => {
  vi.unstubAllEnvs();
});
const client = closedAfterEach();

describe('send: TLS', () => {
  it('an unknown CA → AbortError TLS suggesting --ca-file, not retried', async () => {
    const err = await client(url)
      .send(batch())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect(err).toMatchObject({ code: 'TLS' });
    expect((err as AbortError).suggestion).toMatch(/--ca-file/);
  });

  it('caFile adds the private CA: ok', async () => {
    expect(await client(url, { caFile: CA_FILE }).send(batch())).toMatchObject({ kind: 'ok' });
  });

  it('NODE_TLS_REJECT_UNAUTHORIZED=0 warns and does not disable verification', async () => {
    vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
    // the environment is read by config/ (network-env.ts) and handed to the client
    const c = client(url, { tlsVerifyOffInEnv: networkEnv(process.env).tlsVerifyOffInEnv });
    expect(c.events).toEqual([expect.objectContaining({ type: 'warning', code: 'TLS_VERIFY_ENV' })]);
    await expect(c.send(batch())).rejects.toMatchObject({ code: 'TLS' });
  });

  it('https through HTTPS_PROXY: a CONNECT tunnel, the private CA still applied to the API', async () => {
    const proxy = await startProxy();
    try {
      const c = client(url, { caFile: CA_FILE, env: { HTTPS_PROXY: proxy.url } });
      expect(await c.send(batch())).toMatchObject({ kind: 'ok' });
      expect(proxy.seen).toEqual([expect.objectContaining({ mode: 'connect', target: url.replace('https://', '') })]);
      const noCa = client(url, { env: { HTTPS_PROXY: proxy.url } });
      await expect(noCa.send(batch())).rejects.toMatchObject({ code: 'TLS' });
    } finally {
      await proxy.close();
    }
  });
});
