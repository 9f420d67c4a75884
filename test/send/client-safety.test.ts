// Where the key may go: not in clear text off the machine, not to a redirect target, not into any
// result, event or error, even when the server echoes it back.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, EXIT, UsageError } from '../../src/errors.js';
import { networkEnv } from '../../src/config/network-env.js';
import { createApiClient, type SendEvent } from '../../src/send/index.js';
import { closedPort, startServer, type MisbehavingServer, type Step } from '../helpers/misbehaving-server.js';
import { batch, fastClient } from '../helpers/fast-client.js';

const CANARY = 'canary-KEY-7f3a9c1e5b';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

function create(baseUrl: string, extra: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const events: SendEvent[] = [];
  const c = createApiClient({ baseUrl, apiKey: 'k-123456', env: {}, onEvent: (e) => events.push(e), ...extra });
  return { c, events };
}

describe('base URL safety', () => {
  it.each(['http://api.example.com', 'http://10.0.0.5:8080'])('refuses clear-text http to %s (ConfigError, exit 2)', (url) => {
    expect(() => create(url)).toThrowError(ConfigError);
    try {
      create(url);
    } catch (err) {
      expect((err as ConfigError).exitCode).toBe(EXIT.usage);
      expect((err as ConfigError).suggestion).toMatch(/--allow-insecure-http/);
    }
  });

  it('allows it with allowInsecureHttp, loudly', async () => {
    const { c, events } = create('http://api.example.com', { allowInsecureHttp: true });
    expect(events).toEqual([expect.objectContaining({ type: 'warning', code: 'INSECURE_HTTP' })]);
    await c.close();
  });

  it.each(['http://localhost:1', 'http://127.0.0.2:1', 'http://[::1]:1', 'https://api.example.com'])('accepts %s', async (url) => {
    const { c, events } = create(url);
    expect(events).toEqual([]);
    await c.close();
  });

  it.each([
    ['https://api.example.com/v2/integration', /already contains the API's \/v2 path/],
    ['https://api.example.com/v2/integration/deals', /already contains/],
    ['https://user:pw@api.example.com', /credentials/],
    ['ftp://api.example.com', /https:\/\//],
    ['not a url', /not a valid URL/],
  ])('refuses %s', (url, message) => {
    expect(() => create(url)).toThrowError(message);
  });

  it('a missing key is a UsageError', () => {
    expect(() => createApiClient({ baseUrl: 'https://x.example', apiKey: ' ' })).toThrowError(UsageError);
  });
});

describe('TLS settings', () => {
  it('warns when NODE_TLS_REJECT_UNAUTHORIZED=0 (and keeps verifying)', async () => {
    vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
    // the environment is read by config/ (network-env.ts) and handed to the client
    const { c, events } = create('https://api.example.com', { tlsVerifyOffInEnv: networkEnv(process.env).tlsVerifyOffInEnv });
    expect(events).toEqual([expect.objectContaining({ type: 'warning', code: 'TLS_VERIFY_ENV' })]);
    await c.close();
  });

  it('an unreadable or non-PEM CA file is a ConfigError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bs-ca-'));
    writeFileSync(join(dir, 'ca.pem'), 'hello');
    expect(() => create('https://x.example', { caFile: join(dir, 'missing.pem') })).toThrowError(/cannot read the CA file/);
    expect(() => create('https://x.example', { caFile: join(dir, 'ca.pem') })).toThrowError(/no PEM certificate/);
  });
});

describe('the key never leaks', () => {
  const echoKey = (status: number, extra: Partial<Step> = {}): Step => ({
    respond: (req) => ({ status, body: `you sent ${String(req.headers['x-api-key'])}`, ...extra }),
  });

  it('is absent from every result, event and thrown error, even when the server echoes it', async () => {
    server = await startServer();
    const texts: string[] = [];
    const scenarios: Step[][] = [
      [echoKey(400)],
      [echoKey(413)],
      [echoKey(500)],
      [echoKey(200), echoKey(200), echoKey(200)],
      [echoKey(503), echoKey(503), echoKey(503), echoKey(503)],
      [echoKey(401)],
      [echoKey(403)],
      [echoKey(404)],
      [{ status: 307, headers: { location: `https://evil.example/?key=${CANARY}` } }],
      [{ status: 429, headers: { 'retry-after': '9999' } }],
    ];
    for (const steps of scenarios) {
      server.script(steps);
      const c = fastClient(server.url, { apiKey: CANARY, retry: { maxAttempts: 3 } });
      const settled = await c.send(batch()).then(
        (r) => r,
        (e: Error) => ({ ...e, message: e.message, stack: e.stack, cause: String(e.cause) }),
      );
      texts.push(JSON.stringify(settled), JSON.stringify(c.events));
      await c.close();
    }
    const refused = fastClient(`http://127.0.0.1:${await closedPort()}`, { apiKey: CANARY, retry: { maxAttempts: 2 } });
    texts.push(JSON.stringify(await refused.send(batch())), JSON.stringify(refused.events));
    await refused.close();

    expect(server.requests.every((r) => r.headers['x-api-key'] === CANARY)).toBe(true);
    expect(texts.join('\n')).toContain('you sent ***');
    for (const text of texts) expect(text).not.toContain(CANARY);
  });
});
