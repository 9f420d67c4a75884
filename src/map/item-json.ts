// The mappers' fast path: a row's item as JSON, written straight from the values its fields map to,
// for a row that certainly maps to a valid item without warnings. It is what `map`, the contract's
// check and `JSON.stringify` give, byte for byte (test/map/item-json.test.ts holds it to them),
// without building the item or walking it again: those three were about a third of a push's time
// per row, and the item objects were most of the read worker's garbage.
//
// zod stays the judge. Each value is checked by its own leaf schema from the contract (compiled),
// and the structure — which keys, in which order, which are required — is read off the same
// schemas. Whatever it is unsure of (a required field without a value, a value its leaf rejects, a
// problem the mapper would report, a value the contract would warn about, array fields) goes the
// usual way, which says what is wrong.
import { z } from 'zod';
import { seenValues } from '../contract/issues.js';
import { itemSchema } from '../contract/items.js';
import type { Method, Resource } from '../contract/resources.js';
import { unwrap, type AnySchema } from './target-fields.js';
import { REF_PATHS } from './types.js';

/** A field's value for a row when the mapper would report a problem with it. */
export const FAIL = Symbol('fail');

/** A field a mapper fills, and how: the same value `map` would put in the item. */
export interface JsonField<R> {
  /** An item path (`amount.value`), or a custom field (`name` undefined where items carry none). */
  target: { kind: 'field'; path: string } | { kind: 'custom'; key: string; type: string; name: string | undefined };
  /** Its value for a row: undefined when absent (`map` leaves it out), FAIL when `map` would report a problem. */
  value: (row: R) => unknown;
}

/**
 * The item's JSON for a row, with its REF_PATHS ids put in `refs`; undefined when the row does not
 * certainly map to a valid item without warnings. `line`, when given, is a text every string value
 * of the row is part of (a canonical row's line): one escape check for all of them.
 */
export type ItemJson<R> = (row: R, line: string | undefined, refs: unknown[]) => string | undefined;

/**
 * A member of an object, appended to the JSON written so far (`acc`, after a comma unless `first`):
 * the longer text when present, `acc` itself when absent, undefined when the row is not certainly
 * valid. Appending, not joining parts, builds the fewest strings (~20 a deal row, not ~40).
 */
type Member<R> = { required: boolean; write: (row: R, refs: unknown[], acc: string, first: boolean) => string | undefined };

// JSON.stringify escapes these (lone surrogates too); any other string is its text in quotes
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** Set per row: the row's line has nothing to escape, so neither has any of its cells. */
let lineClean = false;

/** The texts a value is written with: its key with and without the comma before it, and with the opening quote of a string. */
interface Keyed {
  key: string;
  commaKey: string;
  keyQuote: string;
  commaKeyQuote: string;
}
const keyed = (key: string): Keyed => ({ key, commaKey: ',' + key, keyQuote: key + '"', commaKeyQuote: ',' + key + '"' });

/** `acc`, then the key, then the value as JSON; undefined for a value JSON cannot say as it is. */
function append(acc: string, k: Keyed, first: boolean, value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (lineClean || !NEEDS_ESCAPE.test(value)) return acc + (first ? k.keyQuote : k.commaKeyQuote) + value + '"';
    return acc + (first ? k.key : k.commaKey) + JSON.stringify(value);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return acc + (first ? k.key : k.commaKey) + String(value);
  return undefined;
}

/**
 * An object's members appended to `acc`: `acc` itself when none is present (the object is absent, as
 * `map` leaves it), undefined when a member is not certainly valid or some are present but a
 * required one is not.
 */
function members<R>(list: readonly Member<R>[], row: R, refs: unknown[], acc: string): string | undefined {
  let out = acc;
  let lacking = false;
  for (const m of list) {
    const next = m.write(row, refs, out, out.length === acc.length);
    if (next === undefined) return undefined;
    if (next.length === out.length) lacking ||= m.required;
    else out = next;
  }
  return lacking && out.length !== acc.length ? undefined : out;
}

/** A required member no column maps: an object that has other members present is then invalid. */
const UNMAPPED: Member<unknown> = { required: true, write: (_row, _refs, acc) => acc };

/** What the members are compiled against: the item's resource, the fields by path, the custom fields. */
interface Compiling<R> {
  resource: Resource;
  byPath: Map<string, JsonField<R>>;
  customs: JsonField<R>[];
  /** Set when a field cannot be written here: the fast path then does not apply. */
  unsupported: boolean;
}

/** The fast path for these fields, or undefined where it does not apply (array fields, a path mapped twice). */
export function compileItemJson<R>(resource: Resource, method: Method, fields: readonly JsonField<R>[]): ItemJson<R> | undefined {
  const byPath = new Map<string, JsonField<R>>();
  for (const f of fields) {
    if (f.target.kind !== 'field') continue;
    if (f.target.path.includes('[') || byPath.has(f.target.path)) return undefined;
    byPath.set(f.target.path, f);
  }
  const c: Compiling<R> = { resource, byPath, customs: fields.filter((f) => f.target.kind === 'custom'), unsupported: false };
  const root = objectMembers(c, unwrap(itemSchema(resource, method) as unknown as AnySchema).inner, '');
  if (c.unsupported) return undefined;
  return (row, line, refs) => {
    refs.fill(undefined);
    // one test of the line instead of one per value: the per-value tests were a sizable share of a row's cost
    lineClean = line !== undefined && !NEEDS_ESCAPE.test(line);
    const body = members(root, row, refs, '{');
    // an item with no field at all is never valid (externalId is always required)
    return body === undefined || body.length === 1 ? undefined : body + '}';
  };
}

/** A field's value, checked by its own leaf schema (and the values the contract has seen), written under its key. */
function leafMember<R>(c: Compiling<R>, key: Keyed, path: string, schema: AnySchema, required: boolean, field: JsonField<R>): Member<R> {
  const { inner, nullable } = unwrap(schema);
  const check = z.compile(inner as unknown as z.ZodType);
  const seen = seenValues(c.resource, path);
  const ref = (REF_PATHS as readonly string[]).indexOf(path);
  const value_ = field.value;
  return {
    required,
    write(row, refs, acc, first) {
      const value = value_(row);
      if (value === undefined) return acc;
      if (value === FAIL) return undefined;
      if (value === null) {
        if (!nullable) return undefined;
      } else {
        const checked = check.safeParse(value);
        if (!checked.success || checked.data !== value) return undefined;
        if (seen !== undefined && !seen.includes(value as string)) return undefined;
      }
      const out = append(acc, key, first, value);
      if (out !== undefined && ref >= 0) refs[ref] = value;
      return out;
    },
  };
}

/** The custom fields as one array member: each element's constant parts written once, its value per row. */
function customMember<R>(c: Compiling<R>, key: Keyed, schema: AnySchema): Member<R> | undefined {
  const element = unwrap(unwrap(schema).inner._zod.def.element as AnySchema).inner;
  if (element._zod.def.type !== 'object') return void (c.unsupported = true);
  const names = Object.keys(element._zod.def.shape as object);
  const valueAt = names.indexOf('value');
  if (valueAt === -1) return void (c.unsupported = true);
  const check = element as unknown as z.ZodType;
  const parts = c.customs.map((f) => {
    if (f.target.kind !== 'custom') throw new Error('unreachable');
    const { key: k, type, name } = f.target;
    const constants: Record<string, string | undefined> = { key: k, type, name };
    // the key, type and name are the same on every row: checked once, with a value of the type
    const sample = type === 'number' ? 1 : type === 'boolean' ? true : 'x';
    const element_ = Object.fromEntries(names.map((n) => [n, n === 'value' ? sample : constants[n]]));
    if (names.some((n) => n !== 'value' && constants[n] === undefined) || !check.safeParse(element_).success) c.unsupported = true;
    if (!seenValues(c.resource, 'customFields[].type')?.includes(type)) c.unsupported = true;
    const member = (n: string) => `${JSON.stringify(n)}:${JSON.stringify(constants[n])}`;
    // an element is written as a member keyed by its head: `{"key":…,"value":` (or `[{…` when first)
    const head = '{' + names.slice(0, valueAt).map(member).concat('"value":').join(',');
    return {
      value: f.value,
      type,
      head: { key: head, commaKey: ',' + head, keyQuote: head + '"', commaKeyQuote: ',' + head + '"' },
      tail:
        names
          .slice(valueAt + 1)
          .map((n) => ',' + member(n))
          .join('') + '}',
    };
  });
  return {
    required: false,
    write(row, _refs, acc, first) {
      const open = acc + (first ? key.key : key.commaKey) + '[';
      let out = open;
      for (const p of parts) {
        const value = p.value(row);
        // as `map`: a custom field without a value is left out
        if (value === undefined || value === null) continue;
        // the contract wants the value's JSON type to be the declared one
        if (value === FAIL || typeof value !== p.type) return undefined;
        const written = append(out, p.head, out.length === open.length, value);
        if (written === undefined) return undefined;
        out = written + p.tail;
      }
      return out.length === open.length ? acc : out + ']';
    },
  };
}

/** The members of an object that fields fill, and UNMAPPED for each required one they do not. */
function objectMembers<R>(c: Compiling<R>, schema: AnySchema, prefix: string): Member<R>[] {
  const list: Member<R>[] = [];
  for (const [name, child] of Object.entries(schema._zod.def.shape as Record<string, AnySchema>)) {
    const key = keyed(JSON.stringify(name) + ':');
    const path = prefix ? `${prefix}.${name}` : name;
    const { inner, optional } = unwrap(child);
    const type = inner._zod.def.type;
    if (name === 'customFields' && prefix === '') {
      if (c.customs.length === 0) continue;
      const m = customMember(c, key, child);
      if (m) list.push(m);
      continue;
    }
    if (type === 'object') {
      const children = objectMembers(c, inner, path);
      if (!children.some((m) => m !== UNMAPPED)) {
        if (!optional) list.push(UNMAPPED);
        continue;
      }
      list.push({
        required: !optional,
        write(row, refs, acc, first) {
          const open = acc + (first ? key.key : key.commaKey) + '{';
          const body = members(children, row, refs, open);
          return body === undefined ? undefined : body.length === open.length ? acc : body + '}';
        },
      });
      continue;
    }
    if (type === 'array') continue; // array fields were turned away above
    const field = c.byPath.get(path);
    if (field !== undefined) list.push(leafMember(c, key, path, child, !optional, field));
    else if (!optional) list.push(UNMAPPED);
  }
  return list;
}
