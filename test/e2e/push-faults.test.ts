// push against a purpose-built misbehaving server: retries keep the batchId, 429/503/dropped
// connections are survived, a 400 is bisected, data.error is attributed, 401 and redirects abort.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest, type Step } from '../helpers/misbehaving-server.js';
import { dealsCsv, runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'fault-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

const itemsOf = (req: RecordedRequest) => JSON.parse(req.body.toString()).items as { externalId: string }[];
const okFor = (req: RecordedRequest, error: object[] = [], failed = error.length) => ({
  status: 200,
  body: { data: { code: 200, success: itemsOf(req).length - failed, error }, status: 'SUCCESS' },
});
const echo: Step = { respond: (req) => okFor(req) };

async function push(steps: Step[], deals: number, args: string[] = [], fallback: Step = echo) {
  server = await startServer(steps, fallback);
  const dir = tempFiles({ 'deals.csv': dealsCsv(deals) });
  const r = await runCli(['push', '--retry-delay', '10', ...args, join(dir, 'deals.csv')], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url });
  return { ...r, requests: server.requests };
}

describe('push survives the network', () => {
  test('503 then success: the retry carries the same batchId and the same bytes', async () => {
    const r = await push([{ status: 503 }], 3);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
    expect(r.stderr).toMatch(/retrying deal batch .*-00001/);
    // the progress line counts it
    expect(r.stderr).toMatch(/1 batch acknowledged, \d+ rows\/s, 1 retry/);
  });

  test('--quiet keeps retries out of the log; the summary line still ends it', async () => {
    const r = await push([{ status: 503 }], 3, ['--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/retrying/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^batch-sync push: run \S+ OK exit=0/);
  });

  test('429 with Retry-After is honoured, never retried early', async () => {
    const r = await push([{ status: 429, headers: { 'retry-after': '1' } }], 2);
    expect(r.code).toBe(0);
    expect(r.requests[1]!.at - r.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  test('a dropped connection is retried', async () => {
    const r = await push([{ drop: true }], 2);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(2);
  });

  test('a server down beyond the retry budget aborts with exit 3 after a bounded number of requests', async () => {
    const r = await push([], 250, ['--retries', '2', '--concurrency', '1'], { status: 503 });
    expect(r.code).toBe(3);
    expect(r.requests).toHaveLength(3);
    expect(r.stdout).toMatch(/NOT_DELIVERED|NOT_SENT/);
    expect(r.stdout).not.toMatch(/\baccepted\b.*\b[1-9]\d* rows accepted/);
    // progress never calls a batch that was given up "acknowledged"
    expect(r.stderr).toMatch(/rows read/);
    expect(r.stderr).not.toMatch(/[1-9]\d* batch(es)? acknowledged/);
  });

  test('401 aborts at once: exit 3, no further requests', async () => {
    const r = await push([], 500, ['--concurrency', '1'], { status: 401, body: { message: 'bad key' } });
    expect(r.code).toBe(3);
    expect(r.requests).toHaveLength(1);
    expect(r.stderr + r.stdout).toMatch(/401/);
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });

  test('a 401 while batches are in flight and another waits for a place: every row still has an outcome', async () => {
    // four batches in flight (slow answers), the fifth waiting for a place when the first 401 lands
    const r = await push([], 1000, ['--concurrency', '4', '--batch-size', '100', '--format', 'json'], {
      status: 401,
      delayMs: 150,
      body: { message: 'bad key' },
    });
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as { counts: { deal: { read: number; accepted: number; rejected: number; invalid: number; skipped: number } } };
    const c = report.counts.deal;
    expect(c.read).toBe(1000);
    expect(c.accepted + c.rejected + c.invalid + c.skipped).toBe(1000);
    expect(c.skipped).toBe(1000);
  });

  test('a fatal error on the second half of a split batch: the first half keeps its one outcome', async () => {
    server = await startServer([
      { status: 400, body: { message: 'bad item somewhere' } }, // the batch of 2: split
      echo, // first half: accepted
      { status: 401, body: { message: 'bad key' } }, // second half: the run aborts
    ]);
    const dir = tempFiles({ 'deals.csv': dealsCsv(2) });
    const r = await runCli(['push', '--retry-delay', '10', '--batch-size', '2', '--concurrency', '1', '--format', 'json', join(dir, 'deals.csv')], {
      BATCH_SYNC_API_KEY: KEY,
      BATCH_SYNC_BASE_URL: server.url,
    });
    expect(server.requests).toHaveLength(3);
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as { counts: { deal: Record<string, number> } };
    // not 3 outcomes for 2 rows (D-1 was once also counted NOT_DELIVERED), which is exit 70
    expect(report.counts.deal).toMatchObject({ read: 2, accepted: 1, skipped: 1 });
    expect(r.stdout).toContain('NOT_DELIVERED');
  });

  test('a split batch whose first half gives up: the second half is not sent either', async () => {
    // the batch of 4 is refused whole (split), its first half meets a server down beyond the retries
    const r = await push([{ status: 400, body: { message: 'one bad item' } }, { status: 503 }, { status: 503 }, { status: 503 }], 4, [
      '--retries',
      '2',
      '--batch-size',
      '4',
      '--concurrency',
      '1',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(3);
    // 1 whole + 3 tries of the first half; never the second half
    expect(r.requests.map((q) => itemsOf(q).length)).toEqual([4, 2, 2, 2]);
    const report = JSON.parse(r.stdout) as { counts: { deal: Record<string, number> } };
    expect(report.counts.deal).toMatchObject({ read: 4, accepted: 0, skipped: 4 });
    expect(r.stdout).toContain('NOT_DELIVERED');
    // the second half's rows went out once, in the refused batch (a 400 applies nothing): NOT_SENT, saying so
    expect(r.stdout).toMatch(/"NOT_SENT",\s*"detail": "refused with batch \S+, which applies nothing; not resent split: run aborted/);
  });

  test('request bodies reuse memory only once answered: retries resend their own bytes, every item arrives once', async () => {
    // bodies of answered batches are written over by later ones (BodyBuffers): slow answers, 503s and
    // a dropped connection keep requests in flight and retried while later batches are built
    let n = 0;
    const steps: Step[] = Array.from({ length: 60 }, () =>
      ++n % 7 === 0 ? { status: 503 } : n % 11 === 0 ? { drop: true } : { delayMs: n % 5, respond: (req) => okFor(req) },
    );
    const r = await push(steps, 600, ['--batch-size', '10', '--concurrency', '4']);
    expect(r.code).toBe(0);
    const byBatch = new Map<string, Buffer>();
    const received: string[] = [];
    for (const req of r.requests) {
      const body = JSON.parse(req.body.toString()) as { batchId: string; items: { externalId: string }[] };
      const first = byBatch.get(body.batchId);
      if (first) expect(req.body.equals(first), `retry of ${body.batchId}`).toBe(true);
      else {
        byBatch.set(body.batchId, req.body);
        received.push(...body.items.map((i) => i.externalId));
      }
    }
    expect(r.requests.length).toBeGreaterThan(60);
    expect(received.sort()).toEqual(Array.from({ length: 600 }, (_, i) => `D-${i + 1}`).sort());
  });

  test('a redirect is never followed with the key', async () => {
    const r = await push([{ status: 307, headers: { location: 'http://127.0.0.1:9/elsewhere' } }], 2);
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toMatch(/redirect.*127\.0\.0\.1:9\/elsewhere/i);
    expect(r.requests).toHaveLength(1);
  });
});

describe('push accounts for every row from the answers', () => {
  test('a 400 is bisected until the bad item is isolated; its neighbours are accepted', async () => {
    const bad: Step = { respond: (req) => (itemsOf(req).some((i) => i.externalId === 'D-6') ? { status: 400, body: { message: 'bad D-6' } } : okFor(req)) };
    const r = await push([], 8, [], bad);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/deal\s+8\s+7\s+1\s+0\s+0/);
    expect(r.stdout).toMatch(/deals\.csv:7/);
    const ids = r.requests.map((q) => itemsOf(q).length);
    expect(ids[0]).toBe(8);
    expect(ids).toContain(1);
  });

  test('data.error elements are attributed by their leading index or externalId label; one naming no item leaves the batch unverified', async () => {
    const byIndex: Step = { respond: (req) => okFor(req, [{ message: 'VALIDATION_ERROR', detail: 'items[1] externalId=D-2: title: is required' }]) };
    const a = await push([byIndex], 3);
    expect(a.code).toBe(1);
    expect(a.stdout).toMatch(/deal\s+3\s+2\s+1/);
    expect(a.stdout).toMatch(/deals\.csv:3/);
    await server!.close();

    const byId: Step = { respond: (req) => okFor(req, [{ message: 'DUPLICATE', detail: 'externalId=D-3: record already exists' }]) };
    const b = await push([byId], 3);
    expect(b.stdout).toMatch(/deals\.csv:4/);
    expect(b.stdout).toMatch(/deal\s+3\s+2\s+1/);
    await server!.close();

    // a bare id later in the text is not an attribution: it is often another item ("same as D-1")
    for (const detail of ['record D-3 already exists', 'quota exceeded']) {
      const unnamed: Step = { respond: (req) => okFor(req, [{ message: 'LIMIT', detail }], 1) };
      const c = await push([unnamed], 3);
      expect(c.stdout).toMatch(/deal\s+3\s+0\s+0\s+0\s+3/);
      expect(c.stdout).toMatch(/UNVERIFIED the server's answer to batch … does not say which rows it refused/);
      await server!.close();
    }
  });

  test('a 200 whose answer cannot be trusted is never counted accepted', async () => {
    const r = await push([], 2, ['--retries', '1'], { status: 200, body: '<html>oops</html>', headers: { 'content-type': 'text/html' } });
    expect(r.code).toBe(3);
    expect(r.stdout).not.toMatch(/OK: all/);
    expect(r.stdout).toMatch(/UNVERIFIED/);
  });
});
