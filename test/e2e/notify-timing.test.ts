// A notification or ping server that answers at once but drips its body (issue 28.8): the status is
// all batch-sync needs, so it hangs up as soon as the status line is in, instead of reading the
// body until its 5 s timeout: before, every call added 5 s to the run, with no warning.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const TOKEN = '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b';
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

interface Call {
  path: string;
  /** ms from the status line being sent to the client hanging up (a figure, logged). */
  heldMs?: number;
  /** Bytes of the body dripped (one each half second) before the client hung up. */
  dripped: number;
}

/** Answers 200 at once, then one byte of a 100-byte body every half second (50 s in all). */
async function drippingServer(): Promise<{ url: string; calls: Call[] }> {
  const calls: Call[] = [];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const call: Call = { path: req.url ?? '', dripped: 0 };
      calls.push(call);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.flushHeaders();
      const sentAt = Date.now();
      const drip = setInterval(() => {
        call.dripped += 1;
        res.write('.');
      }, 500);
      res.on('close', () => {
        clearInterval(drip);
        call.heldMs = Date.now() - sentAt;
      });
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

test('pings and a notification to a server that drips its body: each call ends with its status, no 5 s wait, no warning', async () => {
  const { url, calls } = await drippingServer();
  const dir = tempFiles({ 'accounts.csv': 'externalId,name,type\nacme,Acme,COMPANY\n' });
  const r = await spawnCli(
    ['push', '--sandbox', '--quiet', '--ping-url', `${url}/${TOKEN}`, '--notify-url', `${url}/hook`, '--notify-on', 'always', 'accounts.csv'],
    { cwd: dir, timeoutMs: 60_000 },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/warning: the (notification|start ping|ping)/);
  // every ping carries the run's id (issue 27 item 6): compare the paths without it
  expect(calls.map((c) => c.path.replace(/\?rid=[0-9a-f-]{36}$/, '')).sort()).toEqual([`/${TOKEN}`, `/${TOKEN}/start`, '/hook'].sort());
  // every call was closed by the client soon after its status came, not when its 5 s ran out: a
  // count of the bytes it let the server drip first (the 5 s timeout lets 10 through), the time a figure
  for (const call of calls) {
    expect(call.heldMs, call.path).toBeDefined();
    console.info(`${call.path}: hung up ${call.heldMs} ms after the status line, ${call.dripped} body bytes dripped`);
    expect(call.dripped, call.path).toBeLessThan(5);
  }
}, 70_000);
