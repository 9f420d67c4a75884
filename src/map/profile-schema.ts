// The mapping profile: a JSON file saying how one export's columns become items of one kind.
// Validated with zod so that every mistake is reported at the profile's own field
// (`fields.amount.value.format: expected one of ...`). Its descriptions and `.meta()` are for the
// JSON Schema an editor reads (`batch-sync schema profile`, map/profile-json-schema.ts): `meta` says
// in JSON Schema what a refinement beside it checks, where JSON Schema can say it.
import { z } from 'zod';
import { oneOrListForms, resourceNameJson, writtenAs } from '../contract/json-schema.js';
import { METHODS, RESOURCE_NAMES_HELP, parseResource } from '../contract/resources.js';
import { linearReplacer } from '../util/linear-regexp.js';
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
const names = (min: string) => z.array(name).min(1, min);

const DECIMAL_SETTINGS = [',', '.', 'auto'] as const;
const oneOrList = (v: unknown) => (v && !Array.isArray(v) ? [v] : v);
/** One object, or a list of them: a list as it is, anything else a list of one. */
const objectOrList = <T extends z.ZodType>(item: T, help: string) => writtenAs(z.preprocess(oneOrList, z.array(item)).describe(help), oneOrListForms(item));
/** JSON Schema's way of saying exactly one of these keys. */
const exactlyOneOf = (keys: readonly string[]) => ({ oneOf: keys.map((key) => ({ required: [key] })) });

/** How a file is read: the profile's export, or a lookup's file. */
const readerSpec = z
  .strictObject({
    delimiter: z
      .string()
      .min(1)
      .max(2, 'one character (or \\t)')
      .optional()
      .describe('CSV delimiter: one character, or \\t (default: detected among , ; tab |)'),
    encoding: z.string().min(1).optional().describe('utf-8, utf-16le, utf-16be, windows-1252, latin1 (default: detected)'),
    headerRow: z.number().int().min(1).optional().describe('line of the header row, for exports with title rows above it (default: found)'),
    null: z
      .string()
      .min(1)
      .optional()
      .describe("CSV: the file's NULL marker, \\N in MySQL's exports: a cell that is exactly it, quoted or not, reads as empty (default: none)"),
    sheet: z
      .union([z.string().min(1), z.number().int().min(1)])
      .transform(String)
      .optional()
      .describe('workbooks (.xlsx): the sheet, by name or by its number from 1 (default: the first that holds data)'),
    root: z.string().optional().describe('JSON: a JSON pointer to the array of items ("/records"; default: the top-level array)'),
    // the keys of the plan's jobs[].reader (config/options-reader.ts), meaning the same
    format: oneOf(['csv', 'json', 'ndjson', 'xlsx'] as const)
      .optional()
      .describe("the file's format (default: from its extension)"),
    escape: z
      .string()
      .length(1, 'one character')
      .optional()
      .describe('CSV: the escape character inside quoted fields: \\ for MySQL-style \\" exports, written "\\\\" in JSON (default: the quote itself, "")'),
    maxRecordBytes: z
      .number()
      .int()
      .min(1024, 'a whole number of bytes (1024 or more)')
      .optional()
      .describe('largest CSV record or JSON item before the file is declared broken (default 1048576)'),
  })
  .describe('how the file is read (default: detected)');

/** `{ "pattern": "^ACC-0*", "with": "" }`: every match replaced (`$1` for a group); flags among g, i, m, s, u. */
const replaceRule = z
  .strictObject({
    pattern: z
      .string({ error: () => 'expected a JavaScript regular expression' })
      .min(1, 'must not be empty')
      .describe('a JavaScript regular expression; every match is replaced'),
    with: z
      .string({ error: () => 'expected the replacement text ("" deletes the match; $1 is the first group)' })
      .describe('the replacement: "" deletes the match; $1 is the first group'),
    flags: z
      .string()
      // each of g, i, m, s, u at most once (a repeated one is caught by the lookahead)
      .regex(/^(?!.*(.).*\1)[gimsu]*$/, { error: (iss) => `"${String(iss.input)}" is not a set of flags among g, i, m, s, u` })
      .optional()
      .describe('among i, m, s, u (g is implied)'),
  })
  .superRefine((r, ctx) => {
    try {
      new RegExp(r.pattern, r.flags);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a JavaScript regular expression: ${(error as Error).message}` });
      return;
    }
    try {
      linearReplacer(r.pattern, r.flags);
    } catch {
      ctx.addIssue({
        code: 'custom',
        path: ['pattern'],
        message: 'cannot run in linear time (it uses a back-reference or a lookahead): write it without them, so that no cell can make it run for ever',
      });
    }
  });
export type ReplaceRule = z.output<typeof replaceRule>;

/** `{ "file": "User.csv", "key": "Id", "value": "Email" }`: the cell looked up in another file (lookup-table.ts). */
const lookupSpec = z
  .strictObject({
    file: z.string().min(1, 'must not be empty').describe('the file to look in, relative to the profile file'),
    key: name.describe('its column holding what the cell holds'),
    value: name.describe('its column whose value replaces the cell'),
    reader: readerSpec.optional(),
  })
  .describe('the text looked up in another file (its key column → its value column), before map and the transforms');
export type LookupSpec = z.output<typeof lookupSpec>;

/** The value sources: a field takes exactly one. */
const SOURCES = ['column', 'const', 'template', 'rowHash', 'latestOf'] as const;
/** What a field takes of the latest column of a `latestOf` family. */
const TAKES = ['name', 'date'] as const;

/** Where a value comes from, and what is done to it: shared by fields and custom fields. */
const columns = names('list at least one column');
const transformName = oneOf(TRANSFORMS);
const valueSpec = {
  column: writtenAs(
    z.preprocess(asList, columns).describe('the column, or a list of columns: the first non-empty cell wins'),
    oneOrListForms(name, columns),
  ).optional(),
  const: scalar.optional().describe('this value on every row'),
  template: z.string().min(1, 'must not be empty').optional().describe('text with {column} or {column|transform} in it; {{ and }} for braces'),
  rowHash: z
    .union([z.literal(true), names('list at least one column')], { error: () => 'expected true or a list of column names' })
    .optional()
    .describe("an id from the row's content: every cell (true) or these columns'"),
  latestOf: z
    .string({ error: () => 'expected a column name with one * where the stage is ("date_entered_*")' })
    .regex(/^[^*]*\*[^*]*$/, { error: (iss) => `"${String(iss.input)}" needs one * where the stage is in the column names ("date_entered_*")` })
    .optional()
    .describe(
      'a family of date columns, one per stage, named with one * where the stage is ("date_entered_*"): the stage of the column with the latest date (ties: the later column); none filled is an empty value',
    ),
  take: oneOf(TAKES).optional().describe("with latestOf: the stage's name, the * part of the column's name (name, the default), or that column's date (date)"),
  trim: z.boolean().optional().describe('trim spaces around the cell (default true)'),
  replace: objectOrList(replaceRule, 'regular-expression replacements, applied in order right after trim').optional(),
  lookup: lookupSpec.optional(),
  default: scalar.optional().describe('used when the cell is empty; goes through map and the transforms like a cell'),
  map: z
    // JSON.parse keeps a "__proto__" key that the record would drop: load-profile.ts refuses it
    .record(z.string().meta({ not: { const: '__proto__' } }), scalar)
    .optional()
    .describe('value map, matched ignoring case, accents and surrounding spaces'),
  otherwise: scalar.optional().describe('the result for values the map does not list; without it such values are row errors'),
  transform: writtenAs(
    z
      .preprocess(asList, z.array(transformName))
      .describe('one transform or a list, applied in order; a conversion (string, number, integer, boolean, date, datetime) comes last'),
    oneOrListForms(transformName),
  ).optional(),
  format: oneOf(DATE_FORMATS).optional().describe("the cell's date format (default: the profile's dateFormat)"),
  decimal: oneOf(DECIMAL_SETTINGS).optional().describe("the cell's decimal mark (default: the profile's decimal)"),
};

function exactlyOneSource(spec: Partial<Record<(typeof SOURCES)[number] | 'take', unknown>>, ctx: z.core.$RefinementCtx) {
  const given = SOURCES.filter((k) => spec[k] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      message:
        given.length === 0 ? 'give one of "column", "const", "template", "rowHash" or "latestOf"' : `give only one of ${given.map((g) => `"${g}"`).join(', ')}`,
    });
  }
  if (spec.take !== undefined && spec.latestOf === undefined)
    ctx.addIssue({ code: 'custom', path: ['take'], message: 'goes with "latestOf": say which family' });
}
/** The JSON Schema of what exactlyOneSource checks. */
const ONE_SOURCE = { ...exactlyOneOf(SOURCES), dependentRequired: { take: ['latestOf'] } };

const fieldObject = z
  .strictObject(
    {
      ...valueSpec,
      dropElementIfEmpty: z
        .literal(true, { error: () => 'expected true' })
        .optional()
        .describe('a field of an array element (stages[0].occurredAt): without a value here (its cell empty, no default), the whole element is left out'),
    },
    { error: () => 'expected a column name or an object' },
  )
  .superRefine(exactlyOneSource)
  .meta(ONE_SOURCE);

/** A field: `"Monto"` is short for `{ "column": "Monto" }`. */
export const fieldSpec = writtenAs(
  z
    .preprocess((v) => (typeof v === 'string' ? { column: v } : v), fieldObject)
    .describe('a column name, or an object: one source (column, const, template, rowHash or latestOf) and how its value is changed'),
  z.union([name.describe('the column: short for { "column": ... }'), fieldObject]),
);
export type FieldSpec = z.output<typeof fieldSpec>;

const customFieldSpec = z
  .strictObject({
    key: z.string().min(1, 'must not be empty').describe("the custom field's key, once per profile"),
    name: z.string().optional().describe('display name (default: the column name, or the key); not sent for sales profiles'),
    type: oneOf(['string', 'number', 'boolean'] as const).describe("the value's type"),
    ...valueSpec,
  })
  .superRefine(exactlyOneSource)
  .meta(ONE_SOURCE);

const TESTS = ['in', 'equals', 'empty', 'notEmpty'] as const;
const skipCondition = z
  .strictObject({
    column: name.describe('the column tested'),
    in: z.array(z.string()).optional().describe('skip when the cell is one of these'),
    equals: z.string().optional().describe('skip when the cell is this'),
    empty: z.literal(true).optional().describe('skip when the cell is empty'),
    notEmpty: z.literal(true).optional().describe('skip when the cell is not empty'),
  })
  .superRefine((c, ctx) => {
    const n = TESTS.filter((k) => c[k] !== undefined).length;
    if (n !== 1) ctx.addIssue({ code: 'custom', message: 'give exactly one of "in", "equals", "empty": true or "notEmpty": true' });
  })
  .meta(exactlyOneOf(TESTS));
export type SkipCondition = z.output<typeof skipCondition>;

export const profileSchema = z.strictObject({
  $schema: z.string().optional().describe("this file's JSON Schema, for editors (init writes it)"),
  description: z.string().optional().describe('a note for people; batch-sync ignores it'),
  resource: z
    .string()
    .meta({ ...resourceNameJson(), description: `the kind of item each row becomes: ${RESOURCE_NAMES_HELP}` })
    .transform((s, ctx) => {
      const r = parseResource(s);
      if (!r) ctx.addIssue({ code: 'custom', message: `unknown resource "${s}"; use one of: ${RESOURCE_NAMES_HELP}` });
      return r ?? 'deal';
    }),
  method: oneOf(METHODS)
    .optional()
    .describe('patch: a profile for updates only (its fields are checked against the PATCH shape); without it, a PATCH run leaves out the POST-only fields'),
  reader: readerSpec.optional(),
  timeZone: z
    .string()
    .refine(isValidTimeZone, { error: (iss) => `"${String(iss.input)}" is not an IANA time zone (e.g. America/Sao_Paulo, UTC)` })
    .default('UTC')
    .describe('IANA time zone a date-time without an offset is in (e.g. America/Sao_Paulo)'),
  decimal: oneOf(DECIMAL_SETTINGS).default('auto').describe('decimal mark of every number unless a field says otherwise; auto decides per value when it can'),
  dateFormat: oneOf(DATE_FORMATS).default('auto').describe('date format of every date unless a field says otherwise'),
  skipIf: objectOrList(skipCondition, 'rows to skip (with a reason in the report): one condition or a list, any of which skips').optional(),
  fields: z.record(z.string(), fieldSpec).describe("the item's fields by dotted path (amount.value, stages[0].value), each from the export"),
  customFields: z.array(customFieldSpec).optional().describe('custom fields, each with its key, type and one source'),
});

export type Profile = z.output<typeof profileSchema> & {
  /** File name the profile came from, for messages. */
  origin?: string;
  /** The directory of the profile file: a lookup's `file` is relative to it (else to the working directory). */
  dir?: string;
};
