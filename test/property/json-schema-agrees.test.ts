// `batch-sync schema` must say what `validate` checks: ajv (draft 2020-12) on the printed schema and
// our zod validation give the same verdict on every generated item — valid ones and ones broken in
// the ways users break them (blank strings, unknown currencies, a custom field's value of the wrong
// type, odd e-mails, impossible dates, unknown fields) — for all 4 resources × 2 methods.
// PROPERTY_RUNS=20000 npx vitest run test/property/json-schema-agrees.test.ts for a longer hunt.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ITEM_SCHEMAS } from '../../src/contract/items.js';
import { METHODS, RESOURCES, type Method, type Resource } from '../../src/contract/resources.js';
import { createItemValidator } from '../../src/validate/validate-item.js';
import { runCli } from '../helpers/cli.js';

const RUNS = Number(process.env.PROPERTY_RUNS) || 600;

// formats are annotations in 2020-12; the schema's patterns carry the checks
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, formats: { date: true, 'date-time': true } });

async function printedSchema(resource: Resource, method: Method): Promise<Record<string, unknown>> {
  const r = await runCli(['schema', resource, '--method', method]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

// each field: mostly a right value, sometimes a nearly right one (weights keep both verdicts common)
const either = <T>(right: fc.Arbitrary<T>, wrong: fc.Arbitrary<unknown>) => fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: wrong });
const wrongType = fc.constantFrom<unknown>(1, true, null, [], {}, 1.5);
const blankish = fc.constantFrom('', ' ', '\t', '\u00a0', '\n \u3000', '\ufeff');
const str = either(
  fc.oneof(fc.constantFrom('Acme', 'D-1', ' x ', 'ação', '0', 'null'), fc.string({ minLength: 1, maxLength: 4 })),
  fc.oneof(blankish, wrongType),
);
const anyText = either(fc.string({ maxLength: 4 }), wrongType);
const decimal = either(fc.constantFrom('10', '-1.50', '0.0', '007'), fc.oneof(fc.constantFrom('1e3', '1.', '.5', '+1', '1,5', ' 1', ''), wrongType));
const currency = either(
  fc.constantFrom('USD', 'BRL', 'EUR', 'MXN', 'CLF', 'JPY'),
  fc.oneof(fc.constantFrom('USX', 'usd', 'US', 'USDD', '', 'XAU', ' USD'), wrongType),
);
const date = either(
  fc.constantFrom('2024-02-29', '2024-01-01T10:00:00Z', '2024-01-01T10:00:00+05:30', '2024-01-01T10:00:00.123Z', '2000-02-29'),
  fc.constantFrom('2023-02-29', '2024-02-30', '2024-13-01', '2024-01-01T10:00:00', '2024-01-01T10:00Z', '2024-01-01 10:00:00Z', '24-01-01', '1900-02-29', ''),
);
const dateTime = either(
  fc.constantFrom('2024-01-01T10:00:00Z', '2024-02-29T23:59:59-03:00', '2024-01-01T10:00:00.5+00:00'),
  fc.constantFrom('2024-01-01', '2024-02-30T10:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T10:00:00', ''),
);
const email = either(
  fc.constantFrom('a@b.com', 'a@b-.com', 'a.b+c@x.co', "o'neil@x.io", 'A_B@sub.example.org'),
  fc.oneof(fc.constantFrom('.a@b.com', 'a..b@c.com', 'a@b', 'a@b.c', 'a@-b.com', '@b.com', 'a b@c.com', 'ação@x.com', 'a.@b.com', ''), wrongType),
);
const bool = either(fc.boolean(), fc.constantFrom<unknown>('true', 0, null));
const seen = (values: string[]) => either(fc.oneof(fc.constantFrom(...values), fc.constant('OTHER')), fc.oneof(blankish, wrongType));
/** An object of these fields, optional ones left out at random, sometimes with an unknown key. */
const object = (fields: Record<string, fc.Arbitrary<unknown>>, required: string[]) =>
  either(
    fc
      .tuple(
        fc.record(fields, { requiredKeys: required }),
        fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('extra', 'label', 'contactExternalId') }),
      )
      .map(([o, extra]) => (extra === null ? o : { ...o, [extra]: 'x' })),
    fc.oneof(fc.record(fields, { requiredKeys: [] }), wrongType),
  );
const list = <T>(a: fc.Arbitrary<T>) => either(fc.array(a, { maxLength: 3 }), wrongType);

const stage = object({ pipelineName: str, value: str, occurredAt: dateTime }, ['pipelineName', 'value']);
const valueOf: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 3 }),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  boolean: fc.boolean(),
};
// a value that fits its type most of the time (the type check is what this is about), else anything
const fitting = (cf: unknown) =>
  cf !== null && typeof cf === 'object' && !Array.isArray(cf) && typeof (cf as { type?: unknown }).type === 'string' && valueOf[(cf as { type: string }).type]
    ? either(valueOf[(cf as { type: string }).type]!, fc.constant((cf as { value?: unknown }).value)).map((value) => ('value' in cf ? { ...cf, value } : cf))
    : fc.constant(cf);
const customField = (named: boolean) =>
  object(
    {
      key: str,
      type: seen(['string', 'number', 'boolean']),
      value: fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
      ...(named ? { name: anyText } : {}),
    },
    named ? ['key', 'type', 'value', 'name'] : ['key', 'type', 'value'],
  ).chain(fitting);

const FIELDS: Record<Resource, { fields: Record<string, fc.Arbitrary<unknown>>; required: string[] }> = {
  deal: {
    fields: {
      externalId: str,
      title: str,
      ownerExternalId: str,
      agentExternalId: str,
      isWon: bool,
      amount: object({ value: decimal, currency, exchangeRate: decimal }, ['value', 'currency']),
      currentStage: stage,
      stages: list(stage),
      closeDate: either(fc.oneof(date, fc.constant(null)), wrongType),
      customFields: list(customField(true)),
    },
    required: ['externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount'],
  },
  activity: {
    fields: {
      externalId: str,
      type: seen(['CALL', 'EMAIL', 'MEET']),
      ownerExternalId: str,
      source: object({ name: seen(['OUTBOUND', 'INBOUND']) }, ['name']),
      associated: object({ accountExternalId: str, dealExternalId: str }, []),
      customFields: list(customField(true)),
    },
    required: ['externalId', 'type', 'ownerExternalId', 'source'],
  },
  account: {
    fields: { externalId: str, name: str, type: seen(['COMPANY', 'CONTACT', 'CLIENT']), customFields: list(customField(true)) },
    required: ['externalId', 'name', 'type'],
  },
  'sales-profile': {
    fields: {
      externalId: str,
      email,
      profile: object({ firstName: str, lastName: anyText }, ['firstName', 'lastName']),
      customFields: either(fc.oneof(list(customField(false)), fc.constant(null)), wrongType),
    },
    required: ['externalId', 'email', 'profile'],
  },
};

/** Items with the method's fields (mostly all the required ones), some sparse, some with an unknown or other-method field. */
const POST_ONLY: Partial<Record<Resource, string>> = { 'sales-profile': 'email', account: 'type', activity: 'associated' };

function items(resource: Resource, method: Method): fc.Arbitrary<Record<string, unknown>> {
  const { fields: all, required: postRequired } = FIELDS[resource];
  const postOnly = method === 'patch' ? POST_ONLY[resource] : undefined;
  const fields = Object.fromEntries(Object.entries(all).filter(([k]) => k !== postOnly));
  const required = method === 'patch' ? ['externalId'] : postRequired;
  return fc.oneof(
    { weight: 4, arbitrary: fc.record(fields, { requiredKeys: required }) },
    { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.record(fields, { requiredKeys: [] }), fc.constantFrom('unknown', 'email', 'type', 'associated'))
        .map(([item, key]) => ({ ...item, [key]: 'x' })),
    },
  );
}

describe('the printed JSON Schema and validate agree on every item', () => {
  test('resources and methods covered', () => {
    expect(Object.keys(ITEM_SCHEMAS).sort()).toEqual([...RESOURCES].sort());
  });
  for (const resource of RESOURCES) {
    for (const method of METHODS) {
      test(`${resource} ${method}`, async () => {
        const check = ajv.compile(await printedSchema(resource, method));
        const validate = createItemValidator(resource, method);
        let valid = 0;
        let invalid = 0;
        fc.assert(
          fc.property(items(resource, method), (item) => {
            const zod = validate(item);
            const byAjv = check(item);
            if (zod.ok) valid++;
            else invalid++;
            const why = zod.ok ? JSON.stringify(check.errors) : JSON.stringify(zod.problems);
            expect(byAjv, `ajv ${byAjv ? 'accepts' : 'rejects'}, validate ${zod.ok ? 'accepts' : 'rejects'}: ${why}`).toBe(zod.ok);
          }),
          { numRuns: RUNS },
        );
        // the generators must reach both verdicts, or the test proves little
        expect(valid).toBeGreaterThan(RUNS / 25);
        expect(invalid).toBeGreaterThan(RUNS / 25);
      });
    }
  }
});
