// `lookup` (issue 25 item 3): a value through another file, loaded once, bounded, read off the heap
// and shareable with the read worker. Real files on disk, read by our own readers.
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createMapper, parseProfile } from '../../src/map/index.js';
import { loadLookups, lookupView } from '../../src/map/lookup-table.js';
import type { MapResult } from '../../src/map/types.js';
import { tempFiles } from '../helpers/cli.js';
import { row } from './helpers.js';

const USERS = ['Id,Email,FirstName,LastName', '0055g00000AbCdEAAV,ana@acme.com,Ana,Souza', '0055g00000XyZwVAAV,bruno@acme.com,Bruno,Díaz'].join('\r\n');
const OPP_HEADER = ['Id', 'Name', 'OwnerId', 'StageName', 'Amount'];

const deal = (owner: Record<string, unknown>) => ({
  resource: 'deal',
  fields: {
    externalId: 'Id',
    title: 'Name',
    ownerExternalId: owner,
    agentExternalId: owner,
    isWon: { const: false },
    'amount.value': 'Amount',
    'amount.currency': { const: 'USD' },
  },
});
const LOOKUP = { file: 'User.csv', key: 'Id', value: 'Email' };

async function mapperFor(dir: string, profileJson: Record<string, unknown>) {
  const profile = { ...parseProfile(profileJson, 'opportunity.profile.json'), dir };
  const lookups = await loadLookups(profile, {}, {}, true, dir);
  return createMapper({ resource: 'deal', header: OPP_HEADER, profile, file: 'Opportunity.csv', lookups });
}
const opp = (owner: string, line = 2) =>
  row({ Id: '0065g00000QrStUAAV', Name: 'Renewal', OwnerId: owner, StageName: 'Prospecting', Amount: '100' }, line, 'Opportunity.csv');
const item = (r: MapResult) => {
  if (r.kind !== 'item') throw new Error(JSON.stringify(r));
  return r.item;
};

describe('lookup', () => {
  test('the cell is replaced by the value of the lookup file’s row whose key it is, before map and transforms', async () => {
    const dir = tempFiles({ 'User.csv': USERS });
    const m = await mapperFor(dir, deal({ column: 'OwnerId', lookup: LOOKUP, transform: 'upper' }));
    expect(item(m.map(opp('0055g00000AbCdEAAV')))).toMatchObject({ ownerExternalId: 'ANA@ACME.COM', agentExternalId: 'ANA@ACME.COM' });
    // the fast JSON writer gives the same
    const refs: unknown[] = new Array(5);
    expect(JSON.parse(m.json!(opp('0055g00000XyZwVAAV'), refs)!)).toEqual(item(m.map(opp('0055g00000XyZwVAAV'))));
    expect(refs[1]).toBe('BRUNO@ACME.COM');
  });

  test('a key not in the file is a row error naming the column and the key; or the field’s otherwise', async () => {
    const dir = tempFiles({ 'User.csv': USERS });
    const m = await mapperFor(dir, deal({ column: 'OwnerId', lookup: LOOKUP }));
    const r = m.map(opp('0055g00000ZzZzZAAV', 9));
    expect(r.kind).toBe('invalid');
    expect(r.kind === 'invalid' && r.problems[0]).toMatchObject({
      file: 'Opportunity.csv',
      line: 9,
      column: 'OwnerId',
      field: 'ownerExternalId',
      reason: '"0055g00000ZzZzZAAV" is not an Id in User.csv (fields.ownerExternalId.lookup)',
    });
    const withOtherwise = await mapperFor(dir, deal({ column: 'OwnerId', lookup: LOOKUP, otherwise: 'unassigned@acme.com' }));
    expect(item(withOtherwise.map(opp('0055g00000ZzZzZAAV'))).ownerExternalId).toBe('unassigned@acme.com');
  });

  test('after trim and replace: a 15-character id finds its 18-character key when a replace makes it so', async () => {
    const dir = tempFiles({ 'User.csv': USERS });
    const m = await mapperFor(dir, deal({ column: 'OwnerId', replace: { pattern: '^(0055g00000AbCdE)$', with: '$1AAV' }, lookup: LOOKUP }));
    expect(item(m.map(opp(' 0055g00000AbCdE '))).ownerExternalId).toBe('ana@acme.com');
  });

  test('the file is relative to the profile’s folder, read by any reader (JSON here), with its own reader options', async () => {
    const dir = tempFiles({
      'users.json': JSON.stringify({ items: [{ id: 'u1', contact: { email: 'ana@acme.com' } }] }),
      'users.csv': 'title line\nId;Email\nu2;bruno@acme.com\n',
    });
    const fromJson = await mapperFor(dir, deal({ column: 'OwnerId', lookup: { file: 'users.json', key: 'id', value: 'contact.email' } }));
    expect(item(fromJson.map(opp('u1'))).ownerExternalId).toBe('ana@acme.com');
    const withReader = await mapperFor(
      dir,
      deal({ column: 'OwnerId', lookup: { file: 'users.csv', key: 'Id', value: 'Email', reader: { delimiter: ';', headerRow: 2 } } }),
    );
    expect(item(withReader.map(opp('u2'))).ownerExternalId).toBe('bruno@acme.com');
  });

  test('a key repeated with another value is an error naming both lines; repeated with the same value it is fine', async () => {
    const dir = tempFiles({ 'User.csv': `${USERS}\r\n0055g00000AbCdEAAV,ana@acme.com,Ana,Souza\r\n0055g00000AbCdEAAV,ana.souza@acme.com,Ana,Souza` });
    const error = await mapperFor(dir, deal({ column: 'OwnerId', lookup: LOOKUP })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'profile opportunity.profile.json: fields.ownerExternalId.lookup: User.csv has two Email values for the Id "0055g00000AbCdEAAV": "ana@acme.com" (line 2) and "ana.souza@acme.com" (line 5)',
    );
  });

  test('a key or value column missing from the file is a profile error naming the field and close matches', async () => {
    const dir = tempFiles({ 'User.csv': USERS });
    const error = await mapperFor(dir, deal({ column: 'OwnerId', lookup: { ...LOOKUP, value: 'E-mail' } })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^profile opportunity\.profile\.json: fields\.ownerExternalId\.lookup\.value: column "E-mail" is not in User\.csv; close matches: "Email"/,
    );
    const missing = await mapperFor(dir, deal({ column: 'OwnerId', lookup: { ...LOOKUP, file: 'Users.csv' } })).catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(/^profile opportunity\.profile\.json: fields\.ownerExternalId\.lookup: Users\.csv does not exist/);
  });

  test('bounded: past the cap, one line saying so and naming the file', async () => {
    const dir = tempFiles({ 'User.csv': ['Id,Email', ...Array.from({ length: 30 }, (_, i) => `u${i},u${i}@acme.com`)].join('\n') });
    const profile = { ...parseProfile(deal({ column: 'OwnerId', lookup: LOOKUP }), 'opportunity.profile.json'), dir };
    const error = await loadLookups(profile, { maxKeys: 25 }, {}, true, dir).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'profile opportunity.profile.json: fields.ownerExternalId.lookup: User.csv holds more than 25 keys: a lookup table is held in memory, and bounded (25 keys, 128 MiB of keys and values)',
    );
    const bytes = await loadLookups(profile, { maxBytes: 100 }, {}, true, dir).catch((e: unknown) => e);
    expect((bytes as Error).message).toContain('User.csv holds more than 100 bytes of keys and values');
  });

  test('one table per file, key and value, loaded once for every field and shared with another thread without a copy', async () => {
    const dir = tempFiles({ 'User.csv': USERS });
    const profile = { ...parseProfile(deal({ column: 'OwnerId', lookup: LOOKUP }), 'opportunity.profile.json'), dir };
    const tables = await loadLookups(profile);
    expect(Object.keys(tables)).toHaveLength(1);
    const shared = Object.values(tables)[0]!;
    // a worker reads the same memory
    const script = `
      const { parentPort, workerData } = require('node:worker_threads');
      parentPort.postMessage(workerData.keys.arena instanceof SharedArrayBuffer);
    `;
    const worker = new Worker(script, { eval: true, workerData: shared });
    const seen = await new Promise((done) => worker.once('message', done));
    await worker.terminate();
    expect(seen).toBe(true);
    expect(lookupView(shared).get('0055g00000XyZwVAAV')).toBe('bruno@acme.com');
    expect(lookupView(shared).get('0055g00000xyzwvaav')).toBeUndefined();
  });

  test('a profile with a lookup but no table loaded is refused, never mapped without it', () => {
    const profile = parseProfile(deal({ column: 'OwnerId', lookup: LOOKUP }), 'opportunity.profile.json');
    expect(() => createMapper({ resource: 'deal', header: OPP_HEADER, profile, file: 'Opportunity.csv' })).toThrow(/lookup.*User\.csv.*not loaded/);
  });
});

test('a workbook is a lookup file like any other (the xlsx reader, its typed cells as text)', async () => {
  const fixture = resolve(__dirname, '../../fixtures/xlsx/oportunidades.xlsx');
  const dir = tempFiles({});
  const profile = { ...parseProfile(deal({ column: 'OwnerId', lookup: { file: fixture, key: 'Código', value: 'Cliente' } }), 'opportunity.profile.json'), dir };
  const view = lookupView(Object.values(await loadLookups(profile))[0]!);
  expect(view.get('00123')).toBe('Comercial Andina');
});
