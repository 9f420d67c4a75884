// What a 2xx answer proves, through push against a misbehaving server (issue 16 items 1–4): a row is
// accepted only when the answer proves it; a 2xx is never sent twice within a run; an element is put
// on an item only when it names that item unambiguously.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest, type Step } from '../helpers/misbehaving-server.js';
import { accountsFile, itemsOf, pushJson, type JsonReport } from './faults-helpers.js';

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const answer = (body: object): Step => ({ status: 200, body });
const ok = (req: RecordedRequest, error: unknown[] = [], success = itemsOf(req).length - error.length, extra: object = {}) => ({
  data: { code: 200, success, error, ...extra },
  status: 'SUCCESS',
});
const outcomes = (report: JsonReport) => Object.fromEntries(report.notAccepted.map((r) => [r.externalId, r.message]));

describe('status and data.code (16.2)', () => {
  test.each([
    ['status ERROR', { data: { code: 200, success: 3, error: [] }, status: 'ERROR' }],
    ['data.code 500', { data: { code: 500, success: 3, error: [] }, status: 'SUCCESS' }],
    ['data.code 422', { data: { code: 422, success: 0, error: [{ message: 'LIMIT', detail: 'quota exceeded' }] }, status: 'SUCCESS' }],
  ])('%s: no row accepted, every row UNVERIFIED with the reason, sent once', async (_name, body) => {
    server = await startServer([], answer(body));
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 0, skipped: 3 });
    expect(r.report.notAccepted.every((o) => o.message === 'UNVERIFIED' && /status|data\.code/.test(o.detail))).toBe(true);
  });

  test('data.code 201 with status SUCCESS is success (as the documentation shows it)', async () => {
    server = await startServer([], { respond: (req) => answer({ ...ok(req), data: { ...ok(req).data, code: 201 } }) });
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(0);
    expect(r.report.totals).toMatchObject({ accepted: 3 });
  });
});

describe('a 2xx whose body cannot be read is never sent again in the run (16.4)', () => {
  const big = `{"data":{"code":200,"success":3,"error":[${'{"message":"X","detail":"y"},'.repeat(160_000)}]},"status":"SUCCESS"}`;
  const cases: [string, Step, string[]][] = [
    ['partial JSON', { status: 200, body: '{"data": {"code": 200,', headers: { 'content-type': 'application/json' } }, []],
    [
      'gzip without its header',
      {
        status: 200,
        body: gzipSync('{"data":{"code":200,"success":3,"error":[]},"status":"SUCCESS"}').toString('latin1'),
        headers: { 'content-type': 'application/json' },
      },
      [],
    ],
    ['HTML', { status: 200, body: '<html>portal</html>', headers: { 'content-type': 'text/html' } }, []],
    ['204 No Content', { status: 204 }, []],
    ['reset after the headers', { status: 200, body: ok({ body: Buffer.from('{"items":[1,2,3]}') } as RecordedRequest), cutAfterBytes: 5 }, []],
    ['over 4 MiB', { status: 200, body: big, headers: { 'content-type': 'application/json' } }, []],
    [
      'a slow drip',
      { status: 200, body: ok({ body: Buffer.from('{"items":[1,2,3]}') } as RecordedRequest), drip: { bytes: 1, everyMs: 400 } },
      ['--timeout', '150'],
    ],
    [
      'success as a string, success read as a count',
      { status: 200, body: { data: { code: 200, success: '3', error: [] }, status: 'SUCCESS' } },
      ['--answers', 'named'],
    ],
    [
      'success 2.5, success read as a count',
      { status: 200, body: { data: { code: 200, success: 2.5, error: [] }, status: 'SUCCESS' } },
      ['--answers', 'named'],
    ],
  ];
  test.each(cases)('%s: received exactly once, rows UNVERIFIED, none accepted', async (_name, step, args) => {
    server = await startServer([], step);
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir, ['--retry-delay', '1', ...args]);
    expect(server.requests).toHaveLength(1);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 0, skipped: 3 });
    expect(Object.values(outcomes(r.report))).toEqual(['UNVERIFIED', 'UNVERIFIED', 'UNVERIFIED']);
    expect(r.code).not.toBe(0);
  });

  test.each([
    ['a string', '3'],
    ['a fraction', 2.5],
    ['100, as the documentation shows', 100],
  ])('--no-check-success-count makes success informational: success as %s, rows accepted', async (_name, success) => {
    server = await startServer([], answer({ data: { code: 200, success, error: [] }, status: 'SUCCESS' }));
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir, ['--answers', 'named', '--no-check-success-count']);
    expect(server.requests).toHaveLength(1);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 3 });
    expect(r.code).toBe(0);
  });
});

describe('an element is put only on the item it names (16.1)', () => {
  test.each([
    ['a bare word naming another item', { message: 'VALIDATION_ERROR', detail: 'name: same name as A-2' }, 2],
    ['an email naming another item', { message: 'DUPLICATE', detail: 'email already used by A-2' }, 2],
  ])('%s, the offender unnamed: no row accepted (success read as a count)', async (_name, element, success) => {
    server = await startServer([], { respond: (req) => answer(ok(req, [element], success)) });
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir, ['--answers', 'named']);
    expect(r.report.totals.accepted).toBe(0);
    expect(outcomes(r.report)).toEqual({ 'A-1': 'UNVERIFIED', 'A-2': 'UNVERIFIED', 'A-3': 'UNVERIFIED' });
    // the rerun sends them all again: nothing was journaled as accepted
    const rerun = await pushJson(file, server.url, stateDir, ['--answers', 'named']);
    expect(server.requests).toHaveLength(2);
    expect(rerun.code).not.toBe(0);
  });

  test.each([
    ['an index, then a second label', 'items[0] externalId=A-1: name: same as externalId=A-2'],
    ['an index, the detail naming another item by label', 'items[0]: name: equals externalId=A-2'],
    ['the one leading label, a second one later', 'externalId=A-1: duplicate of externalId=A-2'],
  ])('%s: the element falls on its own item', async (_name, detail) => {
    server = await startServer([], { respond: (req) => answer(ok(req, [{ message: 'VALIDATION_ERROR', detail }])) });
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir, ['--answers', 'named']);
    expect(r.code).toBe(1);
    expect(outcomes(r.report)).toEqual({ 'A-1': 'VALIDATION_ERROR' });
    expect(r.report.totals).toMatchObject({ accepted: 2, rejected: 1 });
    // A-1 is sent again by the rerun; are not
    await pushJson(file, server.url, stateDir, ['--answers', 'named']);
    expect(itemsOf(server.requests[1]!).map((i) => i.externalId)).toEqual(['A-1']);
  });
});

describe('all applied, plus an element naming no item (16.3)', () => {
  test('success equals the batch size: rows accepted, the element a warning', async () => {
    server = await startServer([], { respond: (req) => answer(ok(req, [{ message: 'WARNING', detail: 'deprecated field ignored' }], itemsOf(req).length)) });
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir, ['--answers', 'named']);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 3, rejected: 0, warnings: 1 });
    expect(JSON.stringify(r.report)).toContain('deprecated field ignored');
    expect(r.code).toBe(0);
  });
});
