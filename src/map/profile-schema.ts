// The mapping profile: a JSON file saying how one export's columns become items of one kind.
// Validated with zod so that every mistake is reported at the profile's own field
// (`fields.amount.value.format: expected one of ...`).
import { z } from 'zod';
import { METHODS, RESOURCE_NAMES_HELP, parseResource } from '../contract/resources.js';
import { DATE_FORMATS } from './transforms/dates.js';
import { isValidTimeZone } from './transforms/time-zone.js';

export const TEXT_TRANSFORMS = ['slug', 'firstName', 'lastName', 'upper', 'lower', 'trim'] as const;
export const CONVERSIONS = ['string', 'number', 'integer', 'boolean', 'date', 'datetime'] as const;
const TRANSFORMS = [...TEXT_TRANSFORMS, ...CONVERSIONS] as const;
export type TransformName = (typeof TRANSFORMS)[number];
export type TextTransform = (typeof TEXT_TRANSFORMS)[number];

const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: () => `expected one of ${values.join(', ')}` });

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: () => 'expected a string, number, boolean or null',
});
const name = z.string({ error: () => 'expected a column name' }).min(1, 'must not be empty');
const asList = (v: unknown) => (typeof v === 'string' ? [v] : v);

const DECIMAL_SETTINGS = [',', '.', 'auto'] as const;
const oneOrList = (v: unknown) => (v && !Array.isArray(v) ? [v] : v);

/** How a file is read: the profile's export, or a lookup's file. */
const readerSpec = z.strictObject({
  delimiter: z.string().min(1).max(2, 'one character (or \\t)').optional(),
  encoding: z.string().min(1).optional(),
  headerRow: z.number().int().min(1).optional(),
  sheet: z
    .union([z.string().min(1), z.number().int().min(1)])
    .transform(String)
    .optional(),
  /** JSON: a JSON pointer to the array of items (`/records`). */
  root: z.string().optional(),
});

/** `{ "pattern": "^ACC-0*", "with": "" }`: every match replaced (`$1` for a group); flags among g, i, m, s, u. */
const replaceRule = z
  .strictObject({
    pattern: z.string({ error: () => 'expected a JavaScript regular expression' }).min(1, 'must not be empty'),
    with: z.string({ error: () => 'expected the replacement text ("" deletes the match; $1 is the first group)' }),
    flags: z
      .string()
      .refine((f) => /^[gimsu]*$/.test(f) && new Set(f).size === f.length, {
        error: (iss) => `"${String(iss.input)}" is not a set of flags among g, i, m, s, u`,
      })
      .optional(),
  })
  .superRefine((r, ctx) => {
    try {
      new RegExp(r.pattern, r.flags);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a JavaScript regular expression: ${(error as Error).message}` });
    }
  });
export type ReplaceRule = z.output<typeof replaceRule>;

/** `{ "file": "User.csv", "key": "Id", "value": "Email" }`: the cell looked up in another file (lookup-table.ts). */
const lookupSpec = z.strictObject({
  /** Relative to the profile file. */
  file: z.string().min(1, 'must not be empty'),
  key: name,
  value: name,
  reader: readerSpec.optional(),
});
export type LookupSpec = z.output<typeof lookupSpec>;

/** The value sources: a field takes exactly one. */
const SOURCES = ['column', 'const', 'template', 'rowHash'] as const;

/** Where a value comes from, and what is done to it: shared by fields and custom fields. */
const valueSpec = {
  /** One column, or several: the first non-empty cell wins. */
  column: z.preprocess(asList, z.array(name).min(1, 'list at least one column')).optional(),
  const: scalar.optional(),
  /** `"{opportunity_id} – {product}"`, with optional `{column|transform}`. */
  template: z.string().min(1, 'must not be empty').optional(),
  /** An id from the row's content (row-hash.ts): every cell (`true`) or these columns'. */
  rowHash: z.union([z.literal(true), z.array(name).min(1, 'list at least one column')], { error: () => 'expected true or a list of column names' }).optional(),
  trim: z.boolean().optional(),
  /** Applied in order to the text right after `trim`. */
  replace: z.preprocess(oneOrList, z.array(replaceRule)).optional(),
  /** The text looked up in another file, before `map` and the transforms. */
  lookup: lookupSpec.optional(),
  /** Used when the cell is empty; goes through `map` and the transforms like a cell. */
  default: scalar.optional(),
  /** Value map, matched ignoring case, accents and surrounding spaces. */
  map: z.record(z.string(), scalar).optional(),
  /** Result for values the map does not list; without it such values are row errors. */
  otherwise: scalar.optional(),
  transform: z.preprocess(asList, z.array(oneOf(TRANSFORMS))).optional(),
  format: oneOf(DATE_FORMATS).optional(),
  decimal: oneOf(DECIMAL_SETTINGS).optional(),
};

function exactlyOneSource(spec: Partial<Record<(typeof SOURCES)[number], unknown>>, ctx: z.core.$RefinementCtx) {
  const given = SOURCES.filter((k) => spec[k] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      message: given.length === 0 ? 'give one of "column", "const", "template" or "rowHash"' : `give only one of ${given.map((g) => `"${g}"`).join(', ')}`,
    });
  }
}

/** A field: `"Monto"` is short for `{ "column": "Monto" }`. */
export const fieldSpec = z.preprocess(
  (v) => (typeof v === 'string' ? { column: v } : v),
  z.strictObject(valueSpec, { error: () => 'expected a column name or an object' }).superRefine(exactlyOneSource),
);
export type FieldSpec = z.output<typeof fieldSpec>;

const customFieldSpec = z
  .strictObject({
    key: z.string().min(1, 'must not be empty'),
    /** Display name; defaults to the column name (or the key). Not sent for sales profiles. */
    name: z.string().optional(),
    type: oneOf(['string', 'number', 'boolean'] as const),
    ...valueSpec,
  })
  .superRefine(exactlyOneSource);

const skipCondition = z
  .strictObject({
    column: name,
    in: z.array(z.string()).optional(),
    equals: z.string().optional(),
    empty: z.literal(true).optional(),
    notEmpty: z.literal(true).optional(),
  })
  .superRefine((c, ctx) => {
    const n = [c.in, c.equals, c.empty, c.notEmpty].filter((x) => x !== undefined).length;
    if (n !== 1) ctx.addIssue({ code: 'custom', message: 'give exactly one of "in", "equals", "empty": true or "notEmpty": true' });
  });
export type SkipCondition = z.output<typeof skipCondition>;

export const profileSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  resource: z.string().transform((s, ctx) => {
    const r = parseResource(s);
    if (!r) ctx.addIssue({ code: 'custom', message: `unknown resource "${s}"; use one of: ${RESOURCE_NAMES_HELP}` });
    return r ?? 'deal';
  }),
  method: oneOf(METHODS).optional(),
  reader: readerSpec.optional(),
  timeZone: z
    .string()
    .refine(isValidTimeZone, { error: (iss) => `"${String(iss.input)}" is not an IANA time zone (e.g. America/Sao_Paulo, UTC)` })
    .default('UTC'),
  /** Decimal mark of every number unless a field says otherwise; `auto` decides per value when it can. */
  decimal: oneOf(DECIMAL_SETTINGS).default('auto'),
  /** Date format of every date unless a field says otherwise. */
  dateFormat: oneOf(DATE_FORMATS).default('auto'),
  skipIf: z.preprocess(oneOrList, z.array(skipCondition)).optional(),
  fields: z.record(z.string(), fieldSpec),
  customFields: z.array(customFieldSpec).optional(),
});

export type Profile = z.output<typeof profileSchema> & {
  /** File name the profile came from, for messages. */
  origin?: string;
  /** The directory of the profile file: a lookup's `file` is relative to it (else to the working directory). */
  dir?: string;
};
