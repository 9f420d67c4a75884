// The profile language's additions of issue 25 item 3: `replace` (regular expressions on a cell's
// text) and `rowHash` (an id from the row's content). `lookup` has its own file (lookup.test.ts).
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createMapper, parseProfile } from '../../src/map/index.js';
import type { MapResult } from '../../src/map/types.js';
import { row } from './helpers.js';

const account = (fields: Record<string, unknown>) => ({ resource: 'account', fields: { type: { const: 'COMPANY' }, ...fields } });

function mapper(profile: Record<string, unknown>, header: string[]) {
  return createMapper({ resource: 'account', header, profile: parseProfile(profile, 'p.json'), file: 'accounts.csv' });
}
const item = (r: MapResult) => {
  if (r.kind !== 'item') throw new Error(JSON.stringify(r));
  return r.item;
};
const profileError = (profile: Record<string, unknown>) => {
  try {
    parseProfile(profile, 'p.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the profile was accepted');
};

describe('replace', () => {
  test('every match, in order, right after trim and before map and transforms; $1 in the replacement; flags', () => {
    const m = mapper(
      {
        ...account({
          externalId: { column: 'Code', replace: { pattern: '^ACC-0*', with: '' } },
          name: {
            column: 'Name',
            replace: [
              { pattern: '\\s*\\(inactive\\)', with: '', flags: 'i' },
              { pattern: '(\\w+), (\\w+)', with: '$2 $1' },
              { pattern: 'o', with: '0' },
            ],
            transform: 'upper',
          },
        }),
        customFields: [{ key: 'country', type: 'string', column: 'Country', replace: { pattern: '\\.', with: '' }, map: { USA: 'US', UK: 'GB' } }],
      },
      ['Code', 'Name', 'Country'],
    );
    expect(item(m.map(row({ Code: '  ACC-00042 ', Name: ' Souza, Ana (INACTIVE) ', Country: 'U.S.A.' })))).toMatchObject({
      externalId: '42',
      name: 'ANA S0UZA',
      customFields: [{ key: 'country', value: 'US' }],
    });
  });

  test('a replacement that leaves nothing is an empty cell: the default applies', () => {
    const m = mapper(account({ externalId: 'Code', name: { column: 'Name', replace: { pattern: '^(n/?a|-)$', with: '', flags: 'i' }, default: 'Unknown' } }), [
      'Code',
      'Name',
    ]);
    expect(item(m.map(row({ Code: 'A1', Name: 'N/A' }))).name).toBe('Unknown');
    expect(item(m.map(row({ Code: 'A1', Name: '-' }))).name).toBe('Unknown');
  });

  test('a pattern that does not compile, or an unknown flag, is a profile error naming the field', () => {
    expect(profileError(account({ externalId: 'Code', name: { column: 'Name', replace: { pattern: '(unclosed', with: '' } } }))).toMatch(
      /^profile p\.json: fields\.name\.replace\[0\]\.pattern: not a JavaScript regular expression: .*Unterminated group/,
    );
    expect(profileError(account({ externalId: 'Code', name: { column: 'Name', replace: [{ pattern: 'a', with: 'b', flags: 'gx' }] } }))).toContain(
      'fields.name.replace[0].flags: "gx" is not a set of flags among g, i, m, s, u',
    );
    expect(profileError(account({ externalId: 'Code', name: { column: 'Name', replace: { pattern: 'a' } } }))).toContain('fields.name.replace[0].with');
  });
});

describe('rowHash', () => {
  const HEADER = ['Company', 'City', 'Notes'];
  const hashOf = (pairs: [string, string][]) =>
    `rh-${createHash('sha256')
      .update(JSON.stringify([...pairs].sort((a, b) => (a[0] < b[0] ? -1 : 1))))
      .digest('hex')
      .slice(0, 20)}`;

  test('true: every cell of the row by header name; the same content gives the same id whatever the line or column order', () => {
    const m = mapper(account({ externalId: { rowHash: true }, name: 'Company' }), HEADER);
    const id = item(m.map(row({ Company: 'Acme', City: 'Lima', Notes: '' }, 2))).externalId;
    expect(id).toBe(
      hashOf([
        ['Company', 'Acme'],
        ['City', 'Lima'],
        ['Notes', ''],
      ]),
    );
    expect(id).toMatch(/^rh-[0-9a-f]{20}$/);
    expect(item(m.map(row({ Company: 'Acme', City: 'Lima', Notes: '' }, 99))).externalId).toBe(id);
    const reordered = mapper(account({ externalId: { rowHash: true }, name: 'Company' }), ['Notes', 'City', 'Company']);
    expect(item(reordered.map(row({ Notes: '', City: 'Lima', Company: 'Acme' }))).externalId).toBe(id);
    // any hashed cell differing, even by a space, is another id
    expect(item(m.map(row({ Company: 'Acme', City: 'Lima ', Notes: '' }))).externalId).not.toBe(id);
    expect(item(m.map(row({ Company: 'Acme', City: 'Lima', Notes: 'x' }))).externalId).not.toBe(id);
  });

  test('a list of columns: only those cells count', () => {
    const m = mapper(account({ externalId: { rowHash: ['City', 'Company'] }, name: 'Company' }), HEADER);
    const id = item(m.map(row({ Company: 'Acme', City: 'Lima', Notes: 'a' }))).externalId;
    expect(id).toBe(
      hashOf([
        ['City', 'Lima'],
        ['Company', 'Acme'],
      ]),
    );
    expect(item(m.map(row({ Company: 'Acme', City: 'Lima', Notes: 'b' }))).externalId).toBe(id);
  });

  test('exactly one of column, const, template and rowHash; a column it names must exist', () => {
    expect(profileError(account({ externalId: { rowHash: true, column: 'Company' }, name: 'Company' }))).toContain(
      'fields.externalId: give only one of "column", "rowHash"',
    );
    expect(profileError(account({ externalId: {}, name: 'Company' }))).toContain(
      'fields.externalId: give one of "column", "const", "template", "rowHash" or "latestOf"',
    );
    expect(() => mapper(account({ externalId: { rowHash: ['Company', 'Ciudad'] }, name: 'Company' }), HEADER)).toThrow(
      /fields\.externalId\.rowHash\[1\]: column "Ciudad" is not in accounts\.csv/,
    );
  });

  test('the fast JSON writer gives what map gives', () => {
    const m = mapper(account({ externalId: { rowHash: true }, name: 'Company' }), HEADER);
    const r = row({ Company: 'Acme', City: 'Lima', Notes: '' });
    const refs: unknown[] = new Array(5);
    const json = m.json?.(r, refs);
    // (in the contract's key order, as validation gives it)
    expect(JSON.parse(json!)).toEqual(item(m.map(r)));
    expect(refs[0]).toBe(item(m.map(r)).externalId);
  });
});
