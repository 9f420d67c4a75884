// `batch-sync sandbox --host 0.0.0.0` opens its API port to the network, and with it the /_sandbox/
// endpoints: reached through this machine's outside address, they ask for the key as the API does,
// refuse a Host that is a name of somebody else's (DNS rebinding), and answer records a page at a time.
import { networkInterfaces } from 'node:os';
import { expect, test } from 'vitest';
import { rawRequest as raw, sandboxCli } from '../helpers/sandbox.js';

const KEY = 'network-inspect-key-3';
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

test.runIf(outside)(
  'through the outside address: 401 without the key, 403 under another name, pages with the key',
  async () => {
    const sandbox = await sandboxCli(KEY, ['--host', '0.0.0.0']);
    try {
      const base = `http://${outside}:${new URL(sandbox.url).port}`;
      for (const [method, path] of [
        ['GET', '/_sandbox/records/deals'],
        ['GET', '/_sandbox/batches'],
        ['GET', '/_sandbox/stats'],
        ['POST', '/_sandbox/reset'],
      ]) {
        const keyless = await raw(`${base}${path}`, { method });
        expect(keyless.status, `${method} ${path}`).toBe(401);
        expect(keyless.body.data.error[0].message).toBe('UNAUTHORIZED');
        const rebound = await raw(`${base}${path}`, { method, headers: { 'x-api-key': KEY, host: 'attacker.example' } });
        expect(rebound.status, `${method} ${path}`).toBe(403);
      }
      const page = await raw(`${base}/_sandbox/records/deals`, { headers: { 'x-api-key': KEY } });
      expect({ status: page.status, body: page.body }).toEqual({
        status: 200,
        body: { resource: 'deal', total: 0, offset: 0, limit: 100, nextOffset: null, records: [] },
      });
    } finally {
      await sandbox.stop();
    }
  },
  30_000,
);
