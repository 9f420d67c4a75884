// Custom fields: `{key, type, value, name}`; `value` must match `type` when `type` is one the spec shows.
import { z } from 'zod';
import { SEEN_VALUES, nonBlank, seenValue } from './fields.js';

const base = {
  key: nonBlank('Machine name of the field.'),
  type: seenValue(SEEN_VALUES.customFieldType, 'Type of the value.'),
  value: z.union([z.string(), z.number(), z.boolean()]).describe('The value; its JSON type matches `type`.'),
};

/** valueMatchesType in JSON Schema: for each known `type`, `value` has that JSON type. */
const VALUE_BY_TYPE = {
  allOf: SEEN_VALUES.customFieldType.map((type) => ({
    if: { properties: { type: { const: type } }, required: ['type'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own if/then keyword
    then: { properties: { value: { type } } },
  })),
};

function valueMatchesType(field: { type: string; value: unknown }, ctx: z.core.$RefinementCtx) {
  const known = (SEEN_VALUES.customFieldType as readonly string[]).includes(field.type);
  if (known && typeof field.value !== field.type) {
    ctx.addIssue({
      code: 'custom',
      path: ['value'],
      message: `${JSON.stringify(field.value)} is a ${typeof field.value} but type is "${field.type}"`,
    });
  }
}

/** Deals, activities and accounts: with a display `name`. */
const namedCustomField = z
  .strictObject({ ...base, name: z.string().describe('Display name.') })
  .superRefine(valueMatchesType)
  .describe('A custom field (with display name).')
  .meta(VALUE_BY_TYPE);

/** Sales profiles: no `name`. */
const profileCustomField = z
  .strictObject(base)
  .superRefine(valueMatchesType)
  .describe('A custom field of a sales profile (no display name).')
  .meta(VALUE_BY_TYPE);

export const namedCustomFields = z.array(namedCustomField).describe('Custom fields. Can be omitted.');
export const profileCustomFields = z.array(profileCustomField).nullable().describe('Custom fields. Can be omitted or null.');
