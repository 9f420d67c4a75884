// The leaf fields of an item kind, read off the zod contract so that mapping never keeps a second,
// hand-typed copy of the item shapes. Structure comes from walking the schema; what a string leaf
// holds (a decimal, a date, a date-time) is found by asking the leaf itself a few sample values,
// which keeps working whatever zod stores in its internals.
import type { z } from 'zod';
import { itemSchema } from '../contract/items.js';
import type { Method, Resource } from '../contract/resources.js';

export type LeafKind = 'string' | 'boolean' | 'number' | 'decimal' | 'date' | 'datetime' | 'dateOrDateTime';

export interface TargetField {
  /** Dotted path; array elements appear as `[]` (`stages[].value`). */
  path: string;
  kind: LeafKind;
  /** Required once its group is present (the item itself, or the optional object that encloses it). */
  required: boolean;
  nullable: boolean;
  /** Path of the nearest optional object or array that encloses it ('' for the item itself). */
  group: string;
  /** Ids get the Excel scientific-notation check. */
  isId: boolean;
}

export interface TargetShape {
  fields: Map<string, TargetField>;
  /** Whether the item has `customFields` and whether its elements carry a display `name`. */
  customFields: 'named' | 'unnamed' | 'none';
}

export type AnySchema = z.core.$ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

export function unwrap(schema: AnySchema): { inner: AnySchema; optional: boolean; nullable: boolean } {
  let inner = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const t = inner._zod.def.type;
    if (t === 'optional' || t === 'default') optional = true;
    else if (t === 'nullable') nullable = true;
    else break;
    inner = inner._zod.def.innerType as AnySchema;
  }
  return { inner, optional, nullable };
}

const accepts = (s: AnySchema, v: unknown) => (s as unknown as z.ZodType).safeParse(v).success;

function leafKind(s: AnySchema): LeafKind {
  const t = s._zod.def.type;
  if (t === 'boolean') return 'boolean';
  if (t === 'number') return 'number';
  if (accepts(s, 'some text')) return 'string';
  const date = accepts(s, '2024-01-31');
  const dateTime = accepts(s, '2024-01-31T10:00:00Z');
  if (date && dateTime) return 'dateOrDateTime';
  if (date) return 'date';
  if (dateTime) return 'datetime';
  if (accepts(s, '1234.5')) return 'decimal';
  return 'string'; // e-mail, currency code: text with a format the validator checks
}

function walk(schema: AnySchema, prefix: string, required: boolean, group: string, out: Map<string, TargetField>) {
  const shape = schema._zod.def.shape as Record<string, AnySchema>;
  for (const [key, child] of Object.entries(shape)) {
    if (key === 'customFields') continue; // expressed by the profile's customFields list, not as a field
    const path = prefix ? `${prefix}.${key}` : key;
    const { inner, optional, nullable } = unwrap(child);
    const req = required && !optional;
    const t = inner._zod.def.type;
    if (t === 'object') walk(inner, path, optional ? true : req, optional ? path : group, out);
    else if (t === 'array') {
      const el = unwrap(inner._zod.def.element as AnySchema).inner;
      if (el._zod.def.type === 'object') walk(el, `${path}[]`, true, `${path}[]`, out);
    } else {
      out.set(path, { path, kind: leafKind(inner), required: req, nullable, group, isId: /externalId$/i.test(key) });
    }
  }
}

const cache = new Map<string, TargetShape>();

export function targetShape(resource: Resource, method: Method): TargetShape {
  const cacheKey = `${resource}/${method}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const root = unwrap(itemSchema(resource, method) as unknown as AnySchema).inner;
  const fields = new Map<string, TargetField>();
  walk(root, '', true, '', fields);
  const shape = root._zod.def.shape as Record<string, AnySchema>;
  let customFields: TargetShape['customFields'] = 'none';
  if (shape.customFields) {
    const arr = unwrap(shape.customFields).inner;
    const probe = [{ key: 'k', type: 'string', value: 'v', name: 'n' }];
    customFields = accepts(arr, probe) ? 'named' : 'unnamed';
  }
  const result = { fields, customFields };
  cache.set(cacheKey, result);
  return result;
}

/**
 * The fields an item of this kind has on create (POST) and not on update (PATCH): account `type`,
 * sales-profile `email`, activity `associated.*`. Read off the contract, never listed by hand.
 */
export function postOnlyFields(resource: Resource): ReadonlySet<string> {
  const patch = targetShape(resource, 'patch').fields;
  return new Set([...targetShape(resource, 'post').fields.keys()].filter((path) => !patch.has(path)));
}

/**
 * The one notice for what a PATCH run leaves out, `what` as the user wrote it (`column "type"`,
 * `fields.type`): `column "type" left out: type is sent on create (POST) only, and this run updates (PATCH)`.
 */
export function leftOutNotice(what: string, fields: readonly string[]): string {
  const which = fields.length === 1 ? `${fields[0]} is` : 'they are';
  return `${what} left out: ${which} sent on create (POST) only, and this run updates (PATCH)`;
}

/** `stages[2].value` → `stages[].value`: the schema path of a concrete field path. */
export function schemaPath(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

/** The concrete group a concrete path belongs to: `stages[1].value` in group `stages[]` → `stages[1]`. */
function concreteGroup(path: string, group: string): string {
  if (!group.includes('[]')) return group;
  const escapeRegExp = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp('^' + group.split('[]').map(escapeRegExp).join('\\[\\d+\\]'));
  return path.match(pattern)?.[0] ?? group;
}

/**
 * Required leaves that are not mapped, given the concrete mapped paths: those of the item itself and
 * those of every optional object (or array element) of which at least one leaf is mapped.
 */
export function missingRequired(shape: TargetShape, mapped: Iterable<string>): string[] {
  const mappedSet = new Set(mapped);
  const groups = new Map<string, string>([['', '']]); // concrete group → schema group
  for (const p of mappedSet) {
    const f = shape.fields.get(schemaPath(p));
    if (f) groups.set(concreteGroup(p, f.group), f.group);
  }
  const missing: string[] = [];
  for (const [concrete, group] of groups) {
    for (const f of shape.fields.values()) {
      if (f.group !== group || !f.required) continue;
      const path = group ? concrete + f.path.slice(group.length) : f.path;
      if (!mappedSet.has(path)) missing.push(path);
    }
  }
  return missing;
}
