// JSON Schemas generated from zod schemas: an item's (descriptions carry the spec's notes), and the
// means by which the plan's and the profile's (config/sync-plan.ts, map/profile-json-schema.ts)
// say what a user may write where zod first rewrites the value.
import { z } from 'zod';
import { itemSchema } from './items.js';
import { resourceSpellings, type Resource } from './resources.js';
import type { Method } from './resources.js';

export type JsonSchema = Record<string, unknown>;

export function itemJsonSchema(resource: Resource, method: Method): JsonSchema {
  const schema = z.toJSONSchema(itemSchema(resource, method), { io: 'input', unrepresentable: 'any' });
  return { title: `${resource} item (${method.toUpperCase()})`, ...schema };
}

/**
 * A value zod first rewrites (`z.preprocess`: `"Monto"` for `{ "column": "Monto" }`, one rule for a
 * list of one) has no input side zod can print: the forms a user may write are declared beside it.
 */
const WRITTEN_AS = new WeakMap<object, z.ZodType>();

/** `schema` (a preprocess, outermost: describe it before) is written in JSON as `forms` says. */
export function writtenAs<T extends z.ZodType>(schema: T, forms: z.ZodType): T {
  WRITTEN_AS.set(schema, forms);
  return schema;
}

/** `item` or a list of them (the list as `list` says, when it has its own limits). */
export const oneOrListForms = (item: z.ZodType, list: z.ZodType = z.array(item)) => z.union([item, list]);

/** What a user may write: zod's input side, with the declared forms of rewritten values and every description. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      const forms = WRITTEN_AS.get(zodSchema);
      if (!forms) return;
      const { $schema: _, ...written } = inputJsonSchema(forms);
      const { description } = jsonSchema;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, written, description === undefined ? {} : { description });
    },
  }) as JsonSchema;
}

/**
 * Every character that String#toLowerCase turns into this ASCII letter: its two cases, and for k the
 * Kelvin sign K (U+212A), the only other one (test/contract/resource-name-pattern.test.ts scans them all).
 */
const sameWhenLowered = (letter: string): string[] => (letter === 'k' ? ['K', 'k', '\u212a'] : [letter.toUpperCase(), letter]);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern that matches exactly the names `parseResource` takes (for one resource, or any): its
 * spellings, in any case, with white space around (String#trim's and `\s` are the same set).
 */
export function resourceNamePattern(resource?: Resource): string {
  const spelled = (name: string) => [...name].map((c) => (/[a-z]/.test(c) ? `[${sameWhenLowered(c).join('')}]` : escapeRegExp(c))).join('');
  return `^\\s*(?:${resourceSpellings(resource).map(spelled).join('|')})\\s*$`;
}

/** A resource name as JSON Schema: the spellings to complete, and the pattern that decides. */
export function resourceNameJson(): JsonSchema {
  return { anyOf: [{ enum: resourceSpellings() }, { pattern: resourceNamePattern() }] };
}
