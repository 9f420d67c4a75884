// A profile compiled against one file's header into a mapping description (described-mapper.ts):
// each field and custom field becomes a closure, each skip condition a test, all chosen once.
import { aResource, type Method, type Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import { columnResolver, type ColumnResolver, type RowLike } from './columns.js';
import { compileValue, type RowContext, type ValueFn } from './compile-value.js';
import { familyColumns } from './profile-family.js';
import { describedMapper, type FieldRule } from './described-mapper.js';
import { checkProfileTargets } from './profile-targets.js';
import { lookupFor, type LookupTables } from './lookup-table.js';
import type { FieldSpec, Profile, SkipCondition } from './profile-schema.js';
import { leftOutNotice, postOnlyFields, schemaPath, targetShape } from './target-fields.js';
import { fold } from './transforms/text.js';
import { ZoneClock } from './transforms/time-zone.js';
import type { Mapper } from './types.js';

function compileSkip(c: SkipCondition, where: string, columns: ColumnResolver): (row: RowLike) => string | undefined {
  const col = columns.resolve(c.column, `${where}.column`);
  const read = columns.reader(col);
  const cell = (row: RowLike) => (read(row) ?? '').trim();
  if (c.empty) return (row) => (cell(row) === '' ? `"${col}" is empty` : undefined);
  if (c.notEmpty) return (row) => (cell(row) !== '' ? `"${col}" is not empty` : undefined);
  const values = new Set((c.in ?? [c.equals!]).map((v) => fold(v.trim())));
  return (row) => {
    const v = cell(row);
    return values.has(fold(v)) ? `"${col}" is "${v}"` : undefined;
  };
}

const EXAMPLE_DEFAULT: Partial<Record<string, string>> = { boolean: 'false', decimal: '0', number: '0' };

/**
 * A required field whose cell is empty (and that has no default): the problem names the column and
 * the fix (`isWon: is required — column IsWon is empty: add a default to fields.isWon …`), where the
 * contract alone could only say `isWon: is required`.
 */
function namingTheFix(value: ValueFn, path: string, column: string, kind: string): ValueFn {
  const example = EXAMPLE_DEFAULT[kind];
  // no quotes: the report groups rows by a reason with its quoted values masked
  const reason = `is required — column ${column} is empty: add a default to fields.${path}${example ? ` (e.g. default: ${example})` : ''}`;
  return (row, ctx) => {
    const before = ctx.problems.length;
    const v = value(row, ctx);
    if (v === undefined && ctx.problems.length === before)
      ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column, field: path, reason });
    return v;
  };
}

/** `stages[2].occurredAt` → `stages[2]`: the array element a field is in, if any. */
const elementOf = (path: string) => /^(.*\[\d+\])\./.exec(path)?.[1];

/**
 * `dropElementIfEmpty`: every field of the element gives no value on a row where that field has none,
 * so the element is not built at all (the item's other elements close up, item-builder.ts). The
 * deciding field is asked quietly; its own rule reports its problems once, as any field's.
 */
function withElementsLeftOut(rules: (FieldRule & { kind: 'field' })[], profile: Profile): FieldRule[] {
  const deciding = new Map<string, (FieldRule & { kind: 'field' })[]>();
  for (const rule of rules) {
    const element = elementOf(rule.path);
    if (element !== undefined && profile.fields[rule.path]?.dropElementIfEmpty) deciding.set(element, [...(deciding.get(element) ?? []), rule]);
  }
  if (deciding.size === 0) return rules;
  const quiet: RowContext = { file: '', line: 0, problems: [] };
  return rules.map((rule) => {
    // a deciding field is not asked about itself: without a value it gives none, and its problem is said
    const tests = deciding
      .get(elementOf(rule.path) ?? '')
      ?.filter((other) => other !== rule)
      .map((other) => other.value);
    if (tests === undefined || tests.length === 0) return rule;
    const value = rule.value;
    return {
      ...rule,
      value: (row, ctx) => {
        quiet.types = ctx.types;
        const kept = tests.every((test) => test(row, quiet) !== undefined);
        quiet.problems.length = 0;
        return kept ? value(row, ctx) : undefined;
      },
    };
  });
}

export interface ProfileMapperOptions {
  resource: Resource;
  method?: Method;
  header?: readonly string[];
  file: string;
  profile: Profile;
  /** The run's lookup tables (lookup-table.ts): every lookup of the profile must be among them. */
  lookups?: LookupTables;
}

/**
 * One export serves both methods: a profile not written for PATCH has its create-only fields
 * (account `type`, sales-profile `email`) left out of a PATCH run, and says so once.
 */
function forMethod(profile: Profile, method: Method): { used: Profile; leftOut: string[] } {
  if (method !== 'patch' || profile.method === 'patch') return { used: profile, leftOut: [] };
  const postOnly = postOnlyFields(profile.resource);
  const leftOut = Object.keys(profile.fields).filter((path) => postOnly.has(schemaPath(path)));
  if (leftOut.length === 0) return { used: profile, leftOut };
  const fields = Object.fromEntries(Object.entries(profile.fields).filter(([path]) => !leftOut.includes(path)));
  return { used: { ...profile, fields }, leftOut };
}

export function profileMapper({ resource, method, header, file, profile: given, lookups }: ProfileMapperOptions): Mapper {
  const origin = given.origin ?? 'profile';
  if (given.resource !== resource) {
    throw new ConfigError(`profile ${origin}: resource: the profile maps ${given.resource} items but ${file} is read as ${resource}`, {
      suggestion: `use ${aResource(resource)} profile, or read the file as ${given.resource}`,
    });
  }
  const m = method ?? given.method ?? 'post';
  const { used: profile, leftOut } = forMethod(given, m);
  const targets = checkProfileTargets({ ...profile, method: m });
  if (targets.length) throw new ConfigError(`profile ${origin}: ${targets.join(`\n  profile ${origin}: `)}`);

  const shape = targetShape(resource, m);
  const columns = columnResolver(header, file, origin);
  const settings = { decimal: profile.decimal, dateFormat: profile.dateFormat, clock: new ZoneClock(profile.timeZone) };
  const lookup = (spec: FieldSpec, where: string) => (spec.lookup === undefined ? undefined : lookupFor(lookups, spec.lookup, profile, where));
  const family = (spec: FieldSpec, where: string) => {
    if (spec.latestOf !== undefined && header && familyColumns(spec.latestOf, header).length === 0)
      throw new ConfigError(`profile ${origin}: ${where}.latestOf: no column of ${file} matches "${spec.latestOf}"`, {
        suggestion: `the * stands for the stage in each column's name ("date_entered_*"); the file's columns are: ${header.map((h) => `"${h}"`).join(', ')}`,
      });
  };
  const compiled = Object.entries(profile.fields).map(([path, spec]): FieldRule & { kind: 'field' } => {
    const target = shape.fields.get(schemaPath(path))!;
    const where = `fields.${path}`;
    family(spec, where);
    const required = target.required && target.group === '' && spec.default === undefined && spec.column !== undefined;
    const value = compileValue(spec, { field: path, kind: target.kind, isId: target.isId, required }, where, columns, settings, lookup(spec, where));
    return {
      kind: 'field',
      path,
      value: required ? namingTheFix(value, path, columns.resolve(spec.column![0]!, `${where}.column`), target.kind) : value,
    };
  });
  const fields = withElementsLeftOut(compiled, profile);
  const named = shape.customFields === 'named';
  for (const [i, cf] of (profile.customFields ?? []).entries()) family(cf, `customFields[${i}]`);
  const customFields: FieldRule[] = (profile.customFields ?? []).map((cf, i) => ({
    kind: 'custom',
    key: cf.key,
    // the display name: given, else the column it comes from, else the key
    name: named ? (cf.name ?? (cf.column?.length === 1 ? cf.column[0] : cf.key)) : undefined,
    type: cf.type,
    value: compileValue(
      cf,
      { field: `customFields.${cf.key}`, kind: cf.type, isId: false },
      `customFields[${i}]`,
      columns,
      settings,
      lookup(cf, `customFields[${i}]`),
    ),
  }));
  const mapper = describedMapper({
    resource,
    method: m,
    header,
    rules: [...fields, ...customFields],
    skips: (profile.skipIf ?? []).map((c, i) => compileSkip(c, `skipIf[${i}]`, columns)),
    // values are transformed, templated or constant, not parts of the line: each is checked for escapes
    valuesAreCells: false,
    jsonItems: 'as-rows',
  });
  // nothing read from the row: every row gives the same item (or the same problems)
  const constant =
    profile.skipIf === undefined && [...Object.values(profile.fields), ...(profile.customFields ?? [])].every((spec) => spec.const !== undefined);
  if (leftOut.length === 0) return { ...mapper, constant };
  return { ...mapper, constant, notes: [`profile ${origin}: ${leftOutNotice(leftOut.map((p) => `fields.${p}`).join(', '), leftOut)}`] };
}
