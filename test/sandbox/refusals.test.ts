// Requests the sandbox refuses as a whole: statuses and the JSON bodies that name the problem.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { call, sandboxWithProfiles } from '../helpers/sandbox.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandboxWithProfiles();
});
afterAll(() => sb.close());

const envelope = { batchId: 'b1', source: 'tests', items: [] };
const refusal = (code: number, message: string) => ({
  data: { code, success: 0, error: [{ message, detail: expect.any(String) }] },
  status: 'ERROR',
});

describe('401: the x-api-key header', () => {
  test('missing', async () => {
    const res = await fetch(`${sb.url}/v2/integration/deals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(envelope),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(refusal(401, 'UNAUTHORIZED'));
  });
  test('wrong, including a prefix of the right key and the right key plus a character', async () => {
    for (const key of ['nope', 'test-key-12', 'test-key-1234', '']) {
      const r = await call(sb, 'POST', '/v2/integration/account', envelope, { 'x-api-key': key });
      expect(r.status, key).toBe(401);
    }
  });
  test('checked on PATCH too, before anything else of the request', async () => {
    const r = await call(sb, 'PATCH', '/v2/integration/sales-profile', 'not json', { 'x-api-key': 'nope' });
    expect(r.status).toBe(401);
  });
});

describe('400: the request cannot be read as a batch', () => {
  test('a content type other than application/json', async () => {
    const r = await call(sb, 'POST', '/v2/integration/deals', JSON.stringify(envelope), { 'content-type': 'text/plain' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(refusal(400, 'UNSUPPORTED_CONTENT_TYPE'));
    expect(r.body.data.error[0].detail).toBe('Content-Type must be application/json, got "text/plain"');
  });
  test('application/json with a charset is fine', async () => {
    const r = await call(sb, 'POST', '/v2/integration/deals', envelope, { 'content-type': 'Application/JSON; charset=utf-8' });
    expect(r.status).toBe(200);
  });
  test('malformed JSON', async () => {
    const r = await call(sb, 'POST', '/v2/integration/deals', '{"batchId": "b1", ');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(refusal(400, 'MALFORMED_JSON'));
    expect(r.body.data.error[0].detail).toMatch(/^body is not valid JSON: /);
  });
  test('a body that is not valid UTF-8 is refused, not stored with U+FFFD in its place', async () => {
    const item = Buffer.from(JSON.stringify({ batchId: 'b-utf8', source: 'tests', items: [{ externalId: 'A-bad', name: 'Caf#', type: 'COMPANY' }] }));
    // "é" as the one Latin-1 byte 0xE9: JSON text must be UTF-8
    item[item.indexOf('#')] = 0xe9;
    const r = await call(sb, 'POST', '/v2/integration/account', item);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(refusal(400, 'MALFORMED_JSON'));
    expect(r.body.data.error[0].detail).toBe(`body is not valid UTF-8 (byte 0xE9 at offset ${item.indexOf(0xe9)}); JSON text must be UTF-8`);
    expect(sb.record('account', 'A-bad')).toBeUndefined();
  });
  test('a broken envelope names every problem', async () => {
    const r = await call(sb, 'PATCH', '/v2/integration/account', { batchId: '', items: {}, extra: 1 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(refusal(400, 'INVALID_ENVELOPE'));
    expect(r.body.data.error[0].detail).toBe(
      'the batch envelope {batchId, source, items} is broken: batchId: must not be empty; source: is required; items: expected array, received object; unknown field "extra": not a field of this request',
    );
  });
  test('a JSON array or scalar is not an envelope', async () => {
    for (const body of ['[]', '42', 'null']) {
      const r = await call(sb, 'POST', '/v2/integration/deals', body);
      expect(r.status, body).toBe(400);
      expect(r.body.data.error[0].message).toBe('INVALID_ENVELOPE');
    }
  });
  test('refused requests change nothing and are not logged as batches', async () => {
    const before = sb.batches().length;
    await call(sb, 'POST', '/v2/integration/deals', '{');
    expect(sb.batches()).toHaveLength(before);
    expect(sb.stats().byStatus['400']).toBeGreaterThan(0);
  });
});

describe('404: not an operation', () => {
  test('unknown path, with or without a key', async () => {
    for (const path of ['/v2/integration/deal', '/v1/integration/deals', '/', '/v2/integration/deals/D1']) {
      const r = await call(sb, 'POST', path, envelope, { 'x-api-key': 'nope' });
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual(refusal(404, 'NOT_FOUND'));
    }
  });
  test('a spec path with a method other than POST or PATCH', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await call(sb, method, '/v2/integration/deals', method === 'GET' ? undefined : envelope);
      expect(r.status, method).toBe(404);
      expect(r.body.data.error[0].detail).toBe(`${method} /v2/integration/deals is not an operation; use POST or PATCH`);
    }
  });
  test('a query string does not change the operation', async () => {
    const r = await call(sb, 'POST', '/v2/integration/deals?dryRun=1', envelope);
    expect(r.status).toBe(200);
  });
});
