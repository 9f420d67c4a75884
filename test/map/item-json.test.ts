// The mappers' fast path writes a row's item JSON straight from the values it maps to. Property, for
// the canonical mapper: for any header of the item's fields and custom fields, in any order, and any
// cells, it gives JSON
// exactly when `map` and the contract's check give a valid item without warnings, and then the same
// text as JSON.stringify of that item and the same ids as refsOf — for every resource and method,
// for rows read from a plain line (one escape check for the whole line) or not.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { seenValues } from '../../src/contract/issues.js';
import { METHODS, RESOURCES, type Method, type Resource } from '../../src/contract/resources.js';
import { createMapper, loadProfile, parseProfile } from '../../src/map/index.js';
import { openSource } from '../../src/read/index.js';
import { targetShape } from '../../src/map/target-fields.js';
import { REF_PATHS, refsOf } from '../../src/map/types.js';
import { CsvRow } from '../../src/read/csv/row-builder.js';
import { createItemValidator } from '../../src/validate/validate-item.js';

// values of every kind, valid and not: each column draws mostly from its own kind's, sometimes from all
const TEXT = [
  'Ana',
  'Ação – lote 2',
  ' spaced ',
  'x"y',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '\u2028',
  '😀',
  'lone \ud800',
  'D-1',
  '0012',
  'CALL',
  'EMAIL',
  'OUTBOUND',
  'COMPANY',
  'OTHER',
  'USD',
  'BRL',
  'ana@example.com',
  'not-an-email',
  '\u0001'.repeat(40),
  'ação😀'.repeat(30),
];
const BY_KIND: Record<string, string[]> = {
  string: TEXT,
  boolean: ['true', 'false', 'TRUE', 'False'],
  number: ['30', '-1.25', '007', '-0', '1.50'],
  decimal: ['1234.50', '-0.5', '0', '10'],
  date: ['2024-01-31', '2024-02-29'],
  datetime: ['2024-01-31T10:30:00Z', '2024-01-31T10:30:00.123+02:00'],
  dateOrDateTime: ['2024-01-31', '2024-01-31T10:30:00Z'],
};
const JUNK = [
  '',
  ' ',
  'null',
  'NULL',
  '#N/A',
  '#hashtag',
  '1E+5',
  '1.23e+11',
  'yes',
  '1,5',
  '2023-02-29',
  '2024-01-31T10:30:00',
  '1e400',
  '9'.repeat(400),
  'US$',
  '\u00a0x\u00a0',
  ...Object.values(BY_KIND).flat(),
];

interface Column {
  name: string;
  kind: string;
}

/** A string field's own valid values where its leaf wants a format; TEXT otherwise. */
function kindOf(resource: Resource, path: string, kind: string): string {
  if (kind !== 'string') return kind;
  if (path.endsWith('currency')) return 'currency';
  if (path === 'email') return 'email';
  return seenValues(resource, path) ? `seen ${resource} ${path}` : 'string';
}

function columns(resource: Resource, method: Method): fc.Arbitrary<Column[]> {
  const shape = targetShape(resource, method);
  const fields = [...shape.fields.values()].filter((f) => !f.path.includes('[]'));
  // required top-level fields always (else the mapper refuses the header), others maybe
  const required = fields.filter((f) => f.required && f.group === '');
  const optional = fields.filter((f) => !(f.required && f.group === ''));
  const custom = fc.record({
    key: fc.constantFrom('probability', 'region', 'vip', 'n'),
    name: fc.constantFrom('', '[Display name]', '[Nome ação]'),
    type: fc.constantFrom('', ':string', ':number', ':boolean'),
  });
  return fc
    .tuple(fc.subarray(optional), shape.customFields === 'none' ? fc.constant([]) : fc.array(custom, { maxLength: 3 }))
    .chain(([more, customs]) =>
      fc.shuffledSubarray(
        [
          ...[...required, ...more].map((f) => ({ name: f.path, kind: kindOf(resource, f.path, f.kind) })),
          ...customs.map((c, i) => ({ name: `customFields.${c.key}${i}${c.name}${c.type}`, kind: c.type === '' ? 'string' : c.type.slice(1) })),
        ],
        { minLength: required.length + more.length + customs.length },
      ),
    );
}

const valid = (kind: string): string[] =>
  kind === 'currency'
    ? ['USD', 'BRL', 'CLP', 'usd']
    : kind === 'email'
      ? ['ana@example.com', 'x@y']
      : kind.startsWith('seen ')
        ? [...seenValues(...(kind.split(' ').slice(1) as [Resource, string]))!, 'OTHER']
        : BY_KIND[kind]!;
const cellOf = (kind: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...valid(kind)) },
    { weight: 1, arbitrary: fc.constantFrom(...JUNK) },
    { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
  );

const cases = RESOURCES.flatMap((resource) => METHODS.map((method) => [resource, method] as const));

test.each(cases)('the fast JSON of a %s %s row is the validated item’s JSON, exactly when it is valid and clean', (resource, method) => {
  const validate = createItemValidator(resource, method);
  let valid = 0;
  fc.assert(
    fc.property(
      columns(resource, method).chain((cols) =>
        fc.tuple(fc.constant(cols), fc.array(fc.tuple(...cols.map((c) => cellOf(c.kind))), { minLength: 1, maxLength: 8 })),
      ),
      ([cols, rows]) => {
        const header = cols.map((c) => c.name);
        let mapper;
        try {
          mapper = createMapper({ resource, method, header, file: 't.csv' });
        } catch (error) {
          // part of an optional object without its required fields: the mapper refuses the header
          expect((error as Error).message).toMatch(/no column for/);
          return;
        }
        expect(mapper.json).toBeDefined();
        for (const cells of rows) {
          // as the reader hands it over: with its line when that is its cells joined by the delimiter
          const line = cells.some((c) => /[,"\r\n]/.test(c)) ? undefined : cells.join(',');
          const record = new CsvRow('t.csv', 2, cells, header, line);
          const refs = new Array<unknown>(REF_PATHS.length);
          const fast = mapper.json!(record, refs);
          if (line !== undefined) expect(mapper.json!(new CsvRow('t.csv', 2, cells, header, undefined), []), 'without its line').toBe(fast);
          const mapped = mapper.map(record);
          const checked = mapped.kind === 'item' ? validate(mapped.item) : undefined;
          const clean = checked?.ok === true && checked.warnings.length === 0;
          if (!clean) {
            expect(fast, JSON.stringify(cells)).toBeUndefined();
            continue;
          }
          valid++;
          expect(fast, JSON.stringify(cells)).toBe(JSON.stringify(checked.item));
          expect(refs).toEqual(refsOf(checked.item));
        }
      },
    ),
    { numRuns: Number(process.env.FC_RUNS ?? 300) },
  );
  // the property said something: many rows were valid
  expect(valid).toBeGreaterThan(50);
});

test('rows read by name write the same JSON; headers with array columns go the usual way', () => {
  const header = ['externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount.value', 'amount.currency'];
  const cells = ['D-1', 'Deal', 'ana', 'ana', 'true', '10', 'USD'];
  const mapper = createMapper({ resource: 'deal', header, file: 't.csv' });
  const refs = new Array<unknown>(REF_PATHS.length);
  const json = '{"externalId":"D-1","title":"Deal","ownerExternalId":"ana","agentExternalId":"ana","isWon":true,"amount":{"value":"10","currency":"USD"}}';
  expect(mapper.json!(new CsvRow('t.csv', 2, cells, header, undefined), refs)).toBe(json);
  // the same cells under an equal header that is not the mapper's array: read by name, from the same description
  const byName = new CsvRow('t.csv', 2, cells, [...header], undefined);
  expect(mapper.json!(byName, refs)).toBe(json);
  const mapped = mapper.map(byName);
  expect(mapped.kind === 'item' && JSON.stringify(mapped.item)).toBe(json);
  const staged = createMapper({ resource: 'deal', header: [...header, 'stages[0].pipelineName', 'stages[0].value'], file: 't.csv' });
  expect(staged.json).toBeUndefined();
});

// every profile we ship, over its own export's rows and over random rows made of its cells (mixed
// across rows, emptied, padded) and of values its transforms must turn away
const PROFILES = [
  ['fixtures/es-excel/oportunidades.profile.json', 'fixtures/es-excel/oportunidades.csv'],
  ['fixtures/hubspot/deals.profile.json', 'fixtures/hubspot/deals.csv'],
  ['fixtures/salesforce/opportunities.profile.json', 'fixtures/salesforce/opportunities.csv'],
  // the public export the README pushes
  ['fixtures/crm-sales-opportunities/sales-pipeline.profile.json', 'fixtures/outside/crm-sales-opportunities/sales_pipeline.csv'],
  ['fixtures/crm-sales-opportunities/accounts.profile.json', 'fixtures/outside/crm-sales-opportunities/accounts.csv'],
  ['fixtures/crm-sales-opportunities/sales-teams.profile.json', 'fixtures/outside/crm-sales-opportunities/sales_teams.csv'],
] as const;

test.each(PROFILES)('the fast JSON through profile %s is the validated item’s JSON, exactly when it is valid and clean', async (profilePath, file) => {
  const profile = await loadProfile(profilePath);
  const source = await openSource(file, profile.reader ?? {});
  const header = source.header!;
  const mapper = createMapper({ resource: profile.resource, method: profile.method, header, profile, file });
  expect(mapper.json).toBeDefined();
  const validate = createItemValidator(profile.resource, profile.method ?? 'post');
  const rows: Record<string, string>[] = [];
  for await (const r of source.records) if (r.kind === 'row') rows.push({ ...r.row });
  let valid = 0;
  const check = (row: Record<string, string>) => {
    const record = new CsvRow(
      file,
      2,
      header.map((h) => row[h] ?? ''),
      header,
      undefined,
    );
    const refs = new Array<unknown>(REF_PATHS.length);
    const fast = mapper.json!(record, refs);
    const mapped = mapper.map(record);
    const checked = mapped.kind === 'item' ? validate(mapped.item) : undefined;
    if (checked?.ok === true && checked.warnings.length === 0) {
      valid++;
      expect(fast, JSON.stringify(row)).toBe(JSON.stringify(checked.item));
      expect(refs).toEqual(refsOf(checked.item));
      // what an incremental rerun reads of a row it knows, without mapping the rest
      expect(mapper.refs!(record)).toEqual(refsOf(checked.item));
    } else expect(fast, JSON.stringify(row)).toBeUndefined();
  };
  rows.forEach(check);
  const own = header.map((h) => [...new Set(rows.map((r) => r[h]!))]);
  const cell = (i: number) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...own[i]!) },
      { weight: 1, arbitrary: fc.constantFrom(...JUNK, ' 1.234,56 ', '31/02/2024', '2024-13-01', 'Ganado', '"quoted"') },
    );
  fc.assert(
    fc.property(fc.tuple(...header.map((_, i) => cell(i))), (cells) => {
      check(Object.fromEntries(header.map((h, i) => [h, cells[i]!])));
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 300) },
  );
  expect(valid).toBeGreaterThan(20);
});

test('a profile value of the wrong JSON type or a null where none is allowed goes the usual way', () => {
  const header = ['id', 'name', 'kind', 'score'];
  const profile = parseProfile(
    {
      resource: 'account',
      fields: { externalId: 'id', name: { column: 'name', map: { gone: null }, otherwise: 'Acme' }, type: { const: 'COMPANY' } },
      customFields: [{ key: 'tier', name: 'Tier', type: 'string', column: 'kind', map: { vip: 1 }, otherwise: 'basic' }],
    },
    'test',
  );
  const mapper = createMapper({ resource: 'account', header, profile, file: 't.csv' });
  const validate = createItemValidator('account', 'post');
  const outcome = (cells: string[]) => {
    const record = new CsvRow('t.csv', 2, cells, header, undefined);
    const mapped = mapper.map(record);
    const checked = mapped.kind === 'item' ? validate(mapped.item) : undefined;
    return { fast: mapper.json!(record, new Array<unknown>(REF_PATHS.length)), slow: checked?.ok ? JSON.stringify(checked.item) : undefined };
  };
  // the usual rows: both ways agree
  expect(outcome(['A-1', 'x', 'std', '1'])).toEqual({
    fast: '{"externalId":"A-1","name":"Acme","customFields":[{"key":"tier","type":"string","value":"basic","name":"Tier"}],"type":"COMPANY"}',
    slow: '{"externalId":"A-1","name":"Acme","customFields":[{"key":"tier","type":"string","value":"basic","name":"Tier"}],"type":"COMPANY"}',
  });
  // a number for a string custom field, and null for a name: invalid, never written fast
  expect(outcome(['A-2', 'x', 'vip', '1'])).toEqual({ fast: undefined, slow: undefined });
  expect(outcome(['A-3', 'gone', 'std', '1'])).toEqual({ fast: undefined, slow: undefined });
});
