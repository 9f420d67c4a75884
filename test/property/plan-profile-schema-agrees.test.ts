// Issue 26 item 4: the committed JSON Schemas (schemas/*.json, what an editor checks a file with)
// and the loaders (map/load-profile.ts parseProfile, config/sync-plan.ts loadSyncPlan) give the same
// verdict on every shipped profile and plan, and on generated ones — valid, and broken the ways
// people break them: wrong types, unknown keys, two sources in one field, bad enum values, a field
// the item does not have, a required one missing, a placeholder left by init, a bad regular
// expression, an unknown time zone…
//
// The only disagreements allowed are the documented exceptions (docs/schemas.md, "What the schema
// cannot check"): checks JSON Schema cannot express, where the schema accepts and the loader refuses
// with the message listed below. Anything else — above all, the schema refusing what the loader takes
// — fails. PROPERTY_RUNS=5000 npx vitest run test/property/plan-profile-schema-agrees.test.ts to hunt longer.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadSyncPlan } from '../../src/config/sync-plan.js';
import { METHODS, RESOURCES, type Method, type Resource } from '../../src/contract/resources.js';
import { ConfigError } from '../../src/errors.js';
import { parseProfile } from '../../src/map/load-profile.js';
import { targetShape } from '../../src/map/target-fields.js';

const RUNS = Number(process.env.PROPERTY_RUNS) || 400;
const ROOT = resolve(__dirname, '../..');

/** The documented exceptions, by the loader's message (docs/schemas.md lists the same). */
const EXCEPTIONS = {
  regex: /replace(\[\d+\])?\.pattern: not a JavaScript regular expression/,
  timeZone: /timeZone: ".*" is not an IANA time zone/,
  template: /\.template: /,
  conversionLast: /\.transform: ".*" converts the value and must come last/,
  customKeyTwice: /customFields\[\d+\]\.key: ".*" is used twice/,
  indexedRequired: /fields\.stages\[\d*\]\.\w+: required for a deal item/,
  url: /is not a URL|takes an http:\/\/ or https:\/\/ URL/,
  fileExists: /matches no file/,
} as const;
type Exception = keyof typeof EXCEPTIONS;

// as an editor reads them: draft 2020-12, VS Code's errorMessage keyword known, and `uri` checked
// as VS Code checks it (a scheme, then anything a URI may hold)
const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  strictRequired: false,
  keywords: ['errorMessage'],
  formats: { uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/ },
});
const schemaFile = (name: string) => JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8'));
const profileValid = ajv.compile(schemaFile('profile.schema.json'));
const planValid = ajv.compile(schemaFile('batch-sync.config.schema.json'));

type Verdict = { ok: true } | { ok: false; lines: string[] };

function profileVerdict(json: unknown): Verdict {
  try {
    parseProfile(json, 'p.profile.json');
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ok: false, lines: error.message.split('\n').map((l) => l.trim()) };
  }
}

let planDir: string | undefined;
async function planVerdict(json: unknown): Promise<Verdict> {
  planDir ??= mkdtempSync(join(tmpdir(), 'plan-agrees-'));
  for (const f of ['deals.csv', 'accounts.csv']) writeFileSync(join(planDir, f), 'externalId\n1\n');
  const path = join(planDir, 'batch-sync.config.json');
  writeFileSync(path, JSON.stringify(json));
  try {
    await loadSyncPlan(path);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ok: false, lines: [error.message] };
  }
}

/** Same verdict, or a documented exception (returned); anything else fails with both sides shown. */
function compare(what: string, json: unknown, schemaSays: boolean, errors: unknown, loader: Verdict): Exception | 'agree' {
  const shown = `${what}: ${JSON.stringify(json)}\najv: ${schemaSays} ${JSON.stringify(errors)}\nloader: ${JSON.stringify(loader)}`;
  if (schemaSays === loader.ok) return 'agree';
  expect(schemaSays, `the schema refuses what the loader takes\n${shown}`).toBe(true);
  const kinds = (loader as { lines: string[] }).lines.map((line) => (Object.keys(EXCEPTIONS) as Exception[]).find((k) => EXCEPTIONS[k].test(line)));
  expect(
    kinds.every((k) => k !== undefined),
    `not a documented exception\n${shown}`,
  ).toBe(true);
  return kinds[0]!;
}

// ---- generated profiles ----------------------------------------------------------------------

const either = <T>(right: fc.Arbitrary<T>, wrong: fc.Arbitrary<unknown>, odds = 30) =>
  fc.oneof({ weight: odds, arbitrary: right as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: wrong });
/** Mostly nothing; now and then a broken part. */
const rarely = <T>(arb: fc.Arbitrary<T>, odds = 25) => fc.oneof({ weight: odds, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const wrongType = fc.constantFrom<unknown>(1, true, null, [], {}, 2.5);
const PLACEHOLDER = '<FILL IN: a column>';
const column = either(fc.constantFrom('Name', 'Monto', 'Código', 'a b', 'Owner'), fc.constantFrom<unknown>('', PLACEHOLDER, 3, null));
const scalar = either(fc.constantFrom<unknown>('x', 0, 1.5, true, null, 'USD'), fc.constantFrom<unknown>([], {}, PLACEHOLDER));
const TRANSFORMS = ['slug', 'firstName', 'upper', 'trim', 'number', 'date', 'boolean'];
const transform = either(
  fc.oneof(fc.constantFrom(...TRANSFORMS), fc.array(fc.constantFrom(...TRANSFORMS), { minLength: 1, maxLength: 3 })),
  fc.constantFrom<unknown>('Slug', 'titlecase', [], ['slug', 'nope'], 3),
);
const replaceRule = fc.record(
  {
    pattern: either(fc.constantFrom('^ACC-0*', '\\s+', '(\\d+)-(\\d+)'), fc.constantFrom<unknown>('(', '[a-', '', '\\', 7)),
    with: either(fc.constantFrom('', '$1', '-'), fc.constantFrom<unknown>(1, null)),
    flags: either(fc.constantFrom('', 'i', 'gu', 'ms'), fc.constantFrom<unknown>('gg', 'x', 'I', 1)),
  },
  { requiredKeys: ['pattern', 'with'] },
);
const lookup = fc.record(
  {
    file: either(fc.constant('User.csv'), fc.constantFrom<unknown>('', 1)),
    key: column,
    value: column,
    reader: fc.record({ delimiter: either(fc.constantFrom(',', ';', '\\t'), fc.constantFrom<unknown>('', ';;;')) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['file', 'key', 'value'] },
);
const sources = fc.record(
  {
    column: either(fc.oneof(column, fc.array(column, { minLength: 1, maxLength: 2 })), fc.constant<unknown>([])),
    const: scalar,
    template: either(
      fc.constantFrom('Deal {Name}', '{Owner|slug}@x.com', 'plain', '{{literal}}'),
      fc.constantFrom<unknown>('Deal {Name', '{Name|nope}', '{}', ''),
    ),
    rowHash: either(
      fc.oneof(fc.constant<unknown>(true), fc.array(fc.constantFrom('Name', 'Owner'), { minLength: 1, maxLength: 2 })),
      fc.constantFrom<unknown>(false, [], 'Name'),
    ),
    // issue 33 item 6: a family of date columns, one * where the stage is
    latestOf: either(fc.constantFrom('date_entered_*', 'Date entered "*"', '*'), fc.constantFrom<unknown>('date_entered', 'a*b*', '', 3)),
  },
  { requiredKeys: [] },
);
// mostly exactly one source; sometimes none or two
const oneSource = fc
  .tuple(sources, fc.nat(3), fc.oneof({ weight: 25, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constantFrom(0, 2) }))
  .map(([all, first, n]) => {
    const keys = Object.keys(all) as (keyof typeof all)[];
    return Object.fromEntries(Array.from({ length: n }, (_, i) => keys[(first + i) % keys.length]!).map((k) => [k, all[k]]));
  });
const extras = fc.record(
  {
    // first, so that they come among the two kept now and then: `take` without latestOf, and an
    // element left out from a field that is in none, are refused by both
    take: rarely(either(fc.constantFrom('name', 'date'), fc.constantFrom<unknown>('stage', 1)), 4),
    dropElementIfEmpty: rarely(either(fc.constant(true), fc.constantFrom<unknown>(false, 'yes')), 4),
    trim: either(fc.boolean(), fc.constant<unknown>('yes')),
    replace: fc.oneof(replaceRule, fc.array(replaceRule, { maxLength: 2 })),
    lookup,
    default: scalar,
    map: either(fc.dictionary(fc.constantFrom('sim', 'Closed won', 'x'), scalar, { maxKeys: 2 }), fc.constant<unknown>([])),
    otherwise: scalar,
    transform,
    format: either(fc.constantFrom('auto', 'DD/MM/YYYY', 'excel'), fc.constantFrom<unknown>('dd/mm/yyyy', 'YYYY')),
    decimal: either(fc.constantFrom(',', '.', 'auto'), fc.constantFrom<unknown>(';', 'comma')),
    colum: rarely(fc.constant('Typo'), 60),
  },
  { requiredKeys: [] },
);
const fieldObject = fc.tuple(oneSource, extras, fc.nat(2)).map(([s, e, n]) => {
  // an unknown key (`colum`) now and then; at most two of the others
  const { colum, ...rest } = e;
  return { ...s, ...Object.fromEntries(Object.entries(rest).slice(0, n)), ...(colum ? { colum } : {}) };
});
const fieldSpec = fc.oneof({ weight: 10, arbitrary: column }, { weight: 15, arbitrary: fieldObject }, { weight: 1, arbitrary: wrongType });

/** `stages[].value` → `stages[0].value`; sometimes `stages[1].…`. */
const concrete = (path: string, i: number) => path.replace('[]', `[${i % 2}]`);

function fieldsFor(resource: Resource, method: Method): fc.Arbitrary<Record<string, unknown>> {
  const paths = [...targetShape(resource, method).fields.values()];
  const required = paths.filter((f) => f.required && f.group === '').map((f) => f.path);
  const optional = paths.filter((f) => !(f.required && f.group === '')).map((f) => f.path);
  const other = fc.constantFrom('amonut.value', 'customFields', 'email', 'type', 'stages[0].value', 'currentStage.value', 'owner');
  return fc
    .record({
      keep: fc.array(fc.boolean(), { minLength: required.length, maxLength: required.length }),
      some: fc.subarray(optional, { maxLength: Math.min(4, optional.length) }),
      odd: rarely(other, 6),
      index: fc.nat(3),
      specs: fc.array(fieldSpec, { minLength: 16, maxLength: 16 }),
    })
    .map(({ keep, some, odd, index, specs }) => {
      // a required field left out now and then: most runs keep them all
      const dropped = keep.every((k) => k) || index !== 0 ? [] : required.slice(0, 1);
      const chosen = [...required.filter((p) => !dropped.includes(p)), ...some.map((p) => concrete(p, index)), ...(odd ? [odd] : [])];
      return Object.fromEntries(chosen.map((p, i) => [p, specs[i % specs.length]]));
    });
}

const SPELLINGS: Record<Resource, string[]> = {
  'sales-profile': ['sales-profile', 'Sales-Profiles', ' users '],
  account: ['account', 'ACCOUNTS'],
  deal: ['deal', 'Deals', 'deal\t'],
  activity: ['activity', 'activities'],
};
const TESTS = {
  in: either(fc.array(fc.constantFrom('0', 'x'), { maxLength: 2 }), fc.constant<unknown>('x')),
  equals: either(fc.constantFrom('', '#N/A'), fc.constant<unknown>(0)),
  empty: either(fc.constant(true), fc.constant<unknown>(false)),
  notEmpty: either(fc.constant(true), fc.constant<unknown>('true')),
};
// one test, mostly; now and then none or two
const skipCondition = fc
  .record({
    column,
    tests: fc.oneof({ weight: 20, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constantFrom(0, 2) }),
    first: fc.nat(3),
    values: fc.record(TESTS),
  })
  .map(({ column: c, tests, first, values }) => {
    const keys = Object.keys(TESTS) as (keyof typeof TESTS)[];
    const chosen = Array.from({ length: tests }, (_, i) => keys[(first + i) % keys.length]!);
    return { column: c, ...Object.fromEntries(chosen.map((k) => [k, values[k]])) };
  });
const customField = fc
  .record({
    key: either(fc.constantFrom('dealType', 'region'), fc.constantFrom<unknown>('', 1)),
    type: either(fc.constantFrom('string', 'number', 'boolean'), fc.constant<unknown>('date')),
    spec: fieldObject,
    name: fc.option(fc.constant('Region'), { nil: undefined }),
  })
  .map(({ key, type, spec, name }) => ({ key, type, ...(name ? { name } : {}), ...spec }));

const profileArb = fc
  .record({
    resource: fc.constantFrom(...RESOURCES),
    method: fc.constantFrom<Method | undefined>(undefined, undefined, ...METHODS),
    spelling: fc.nat(2),
    badResource: rarely(fc.constantFrom<unknown>('dael', '', 'profiles', 3)),
    badMethod: rarely(fc.constantFrom<unknown>('PUT', 'Post')),
    top: fc.record(
      {
        $schema: fc.constant('../schemas/profile.schema.json'),
        description: either(fc.constant('notes'), fc.constant<unknown>(PLACEHOLDER)),
        reader: fc.record(
          {
            delimiter: either(fc.constantFrom(',', ';', '\\t'), fc.constantFrom<unknown>('', ';;;')),
            encoding: either(fc.constantFrom('utf-8', 'latin1'), fc.constant<unknown>('')),
            headerRow: either(fc.integer({ min: 1, max: 9 }), fc.constantFrom<unknown>(0, 1.5, '2')),
            sheet: either(fc.oneof(fc.constant<unknown>('Ventas'), fc.integer({ min: 1, max: 3 })), fc.constantFrom<unknown>('', 0)),
            root: either(fc.constantFrom('/records', ''), fc.constant<unknown>(3)),
            format: either(fc.constantFrom('csv', 'json'), fc.constant<unknown>('xls')),
            escape: either(fc.constant('\\'), fc.constantFrom<unknown>('', '\\\\')),
            maxRecordBytes: either(fc.constant(4096), fc.constantFrom<unknown>(1000, 1.5)),
            quote: rarely(fc.constant("'")),
          },
          { requiredKeys: [] },
        ),
        timeZone: either(fc.constantFrom('UTC', 'America/Sao_Paulo', 'America/Mexico_City'), fc.constantFrom<unknown>('Mars/Olympus', 'BRT', 5)),
        decimal: either(fc.constantFrom(',', '.', 'auto'), fc.constant<unknown>('dot')),
        dateFormat: either(fc.constantFrom('auto', 'YYYY-MM-DD', 'excel'), fc.constant<unknown>('ISO')),
        skipIf: fc.oneof(skipCondition, fc.array(skipCondition, { maxLength: 2 })),
        customFields: either(fc.array(customField, { maxLength: 2 }), fc.constant<unknown>({})),
        mapping: rarely(fc.constant('typo')),
      },
      { requiredKeys: [] },
    ),
  })
  .chain(({ resource, method, spelling, badResource, badMethod, top }) =>
    fieldsFor(resource, method ?? 'post').map((fields) => {
      const { mapping, reader, ...rest } = top;
      const spelled = SPELLINGS[resource][spelling % SPELLINGS[resource].length];
      return {
        // now and then an unknown top-level key (`mapping`), or a reader key a profile's reader has not (`quote`)
        ...(mapping ? { mapping } : {}),
        ...(reader ? { reader: reader.quote ? reader : (({ quote: _, ...r }) => r)(reader) } : {}),
        ...rest,
        resource: badResource ?? spelled,
        ...(badMethod ? { method: badMethod } : method ? { method } : {}),
        fields,
      };
    }),
  );

// ---- generated plans ---------------------------------------------------------------------------

const planArb = fc.record(
  {
    $schema: fc.constant('schemas/batch-sync.config.schema.json'),
    baseUrl: either(
      fc.constantFrom('https://api.example.com', 'http://localhost:8080/v1'),
      fc.constantFrom<unknown>('api.example.com', 'ftp://x', 'http://', 'https://a b', '', 3),
    ),
    source: either(fc.constant('crm'), fc.constantFrom<unknown>('', 1)),
    defaults: fc.record(
      {
        method: either(fc.constantFrom('post', 'patch'), fc.constant<unknown>('put')),
        batchSize: either(fc.integer({ min: 1, max: 10000 }), fc.constantFrom<unknown>(0, 10001, 1.5, '100')),
        maxRate: either(fc.double({ min: 0.1, max: 100000, noNaN: true }), fc.constantFrom<unknown>(0, -1, 100001)),
        retryOn500: either(fc.boolean(), fc.constant<unknown>('true')),
        engine: either(fc.constantFrom('simple', 'fast', 'auto'), fc.constant<unknown>('turbo')),
        isolationBudget: either(fc.nat(), fc.constant<unknown>(-1)),
        batchsize: fc.constant(5),
      },
      { requiredKeys: [] },
    ),
    answers: fc.record(
      {
        style: either(fc.constantFrom('documented', 'named'), fc.constant<unknown>('plain')),
        successCodes: either(fc.array(fc.integer({ min: 100, max: 999 }), { maxLength: 2 }), fc.constantFrom<unknown>([99], [1000], 200)),
      },
      { requiredKeys: [] },
    ),
    notify: fc.record(
      {
        url: either(
          fc.constantFrom('https://hooks.example.com/T1', 'http://127.0.0.1:9/x'),
          fc.constantFrom<unknown>('hooks.example.com', 'mailto:a@b.c', 'https://', ''),
        ),
        on: either(fc.constantFrom('failure', 'always'), fc.constant<unknown>('never')),
        format: either(fc.constantFrom('auto', 'slack', 'teams', 'json'), fc.constant<unknown>('xml')),
      },
      { requiredKeys: [] },
    ),
    maxRejectionRate: either(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom<unknown>(1.5, -0.1)),
    incremental: either(fc.boolean(), fc.constant<unknown>(1)),
    apiKey: fc.constant('sk-secret'),
    jobs: either(
      fc.array(
        fc.record(
          {
            file: either(fc.constantFrom('deals.csv', '*.csv', 'accounts.csv'), fc.constantFrom<unknown>('', 'missing.csv', 4)),
            resource: either(fc.constantFrom('deal', 'Accounts', ' users'), fc.constantFrom<unknown>('dael', '', 1)),
            profile: either(fc.constant('deals.profile.json'), fc.constant<unknown>('')),
            reader: fc.record(
              {
                format: either(fc.constantFrom('csv', 'json'), fc.constant<unknown>('xls')),
                delimiter: either(fc.constantFrom(',', 'tab'), fc.constant<unknown>('')),
                headerRow: either(fc.integer({ min: 1, max: 5 }), fc.constant<unknown>(0)),
                sheet: either(fc.oneof(fc.constant<unknown>('Hoja1'), fc.integer({ min: 1, max: 3 })), fc.constant<unknown>(0)),
                root: either(fc.constantFrom('/data/items', ''), fc.constant<unknown>('data')),
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: ['file'] },
        ),
        { minLength: 1, maxLength: 3 },
      ),
      fc.constant<unknown>([]),
    ),
  },
  { requiredKeys: ['jobs'] },
);
// an unknown key or a secret in the plan, rarely
const planWithOdds = fc.tuple(planArb, fc.nat(20)).map(([plan, n]) => {
  const { apiKey, defaults, ...rest } = plan as Record<string, unknown> & { defaults?: Record<string, unknown> };
  const cleanDefaults = defaults && n !== 1 ? (({ batchsize: _, ...d }) => d)(defaults) : defaults;
  return { ...rest, ...(cleanDefaults ? { defaults: cleanDefaults } : {}), ...(n === 0 && apiKey ? { apiKey } : {}) };
});

// ---- the tests ---------------------------------------------------------------------------------

function shipped(dir: string, match: (name: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) shipped(path, match, out);
    else if (match(name)) out.push(path);
  }
  return out;
}

describe('ajv with schemas/*.json and the loaders agree', () => {
  test('every shipped profile and plan under fixtures/: valid for both, or (fixtures/bad/) refused by both', async () => {
    const profiles = shipped(join(ROOT, 'fixtures'), (n) => n.endsWith('.profile.json'));
    const plans = shipped(join(ROOT, 'fixtures'), (n) => n === 'batch-sync.config.json');
    expect(profiles.length).toBeGreaterThanOrEqual(15);
    expect(plans.length).toBeGreaterThanOrEqual(1);
    for (const file of profiles) {
      const json = JSON.parse(readFileSync(file, 'utf8'));
      const schemaSays = profileValid(json) as boolean;
      expect(schemaSays, `${file}: ${JSON.stringify(profileValid.errors)}`).toBe(profileVerdict(json).ok);
      if (!file.includes('/fixtures/bad/')) expect(schemaSays, file).toBe(true);
    }
    for (const file of plans) {
      const json = JSON.parse(readFileSync(file, 'utf8'));
      expect(planValid(json), `${file}: ${JSON.stringify(planValid.errors)}`).toBe(true);
      await expect(loadSyncPlan(file)).resolves.toBeDefined();
    }
    console.log(`shipped: ${profiles.length} profiles, ${plans.length} plan(s) checked`);
  });

  test('generated profiles, valid and broken: the same verdict but for the documented exceptions', () => {
    const tally: Record<string, number> = { valid: 0, refused: 0 };
    fc.assert(
      fc.property(profileArb, (generated) => {
        // as the file holds it (and as both read it)
        const profile: unknown = JSON.parse(JSON.stringify(generated));
        const schemaSays = profileValid(profile) as boolean;
        const verdict = compare('profile', profile, schemaSays, profileValid.errors, profileVerdict(profile));
        const key = verdict === 'agree' ? (schemaSays ? 'valid' : 'refused') : verdict;
        tally[key] = (tally[key] ?? 0) + 1;
      }),
      { numRuns: RUNS },
    );
    console.log(`profiles: ${RUNS} generated: ${JSON.stringify(tally)}`);
    // both verdicts common, so that agreement means something. About 12% of generated profiles are
    // valid (34 to 55 of 400 in five runs): a floor of a tenth failed one CI run in ten; a twentieth
    // is four standard deviations below the mean.
    expect(tally.valid!).toBeGreaterThan(RUNS / 20);
    expect(tally.refused!).toBeGreaterThan(RUNS / 20);
  });

  test('generated plans, valid and broken: the same verdict but for the documented exceptions', async () => {
    const tally: Record<string, number> = { valid: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(planWithOdds, async (generated) => {
        const plan: unknown = JSON.parse(JSON.stringify(generated));
        const schemaSays = planValid(plan) as boolean;
        const verdict = compare('plan', plan, schemaSays, planValid.errors, await planVerdict(plan));
        const key = verdict === 'agree' ? (schemaSays ? 'valid' : 'refused') : verdict;
        tally[key] = (tally[key] ?? 0) + 1;
      }),
      { numRuns: RUNS },
    );
    console.log(`plans: ${RUNS} generated: ${JSON.stringify(tally)}`);
    expect(tally.valid!).toBeGreaterThan(RUNS / 20);
    expect(tally.refused!).toBeGreaterThan(RUNS / 20);
  });
});
