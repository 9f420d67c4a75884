// A profile compiled against one file's header into a mapping description (described-mapper.ts):
// each field and custom field becomes a closure, each skip condition a test, all chosen once.
import type { Method, Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import { columnResolver, type ColumnResolver, type RowLike } from './columns.js';
import { compileValue } from './compile-value.js';
import { describedMapper, type FieldRule } from './described-mapper.js';
import { checkProfileTargets } from './profile-targets.js';
import { lookupFor, type LookupTables } from './lookup-table.js';
import type { FieldSpec, Profile, SkipCondition } from './profile-schema.js';
import { schemaPath, targetShape } from './target-fields.js';
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

export interface ProfileMapperOptions {
  resource: Resource;
  method?: Method;
  header?: readonly string[];
  file: string;
  profile: Profile;
  /** The run's lookup tables (lookup-table.ts): every lookup of the profile must be among them. */
  lookups?: LookupTables;
}

export function profileMapper({ resource, method, header, file, profile, lookups }: ProfileMapperOptions): Mapper {
  const origin = profile.origin ?? 'profile';
  if (profile.resource !== resource) {
    throw new ConfigError(`profile ${origin}: resource: the profile maps ${profile.resource} items but ${file} is read as ${resource}`, {
      suggestion: `use a ${resource} profile, or read the file as ${profile.resource}`,
    });
  }
  const m = method ?? profile.method ?? 'post';
  const targets = checkProfileTargets({ ...profile, method: m });
  if (targets.length) throw new ConfigError(`profile ${origin}: ${targets.join(`\n  profile ${origin}: `)}`);

  const shape = targetShape(resource, m);
  const columns = columnResolver(header, file, origin);
  const settings = { decimal: profile.decimal, dateFormat: profile.dateFormat, clock: new ZoneClock(profile.timeZone) };
  const lookup = (spec: FieldSpec, where: string) => (spec.lookup === undefined ? undefined : lookupFor(lookups, spec.lookup, profile, where));
  const fields: FieldRule[] = Object.entries(profile.fields).map(([path, spec]) => {
    const target = shape.fields.get(schemaPath(path))!;
    const where = `fields.${path}`;
    return {
      kind: 'field',
      path,
      value: compileValue(spec, { field: path, kind: target.kind, isId: target.isId }, where, columns, settings, lookup(spec, where)),
    };
  });
  const named = shape.customFields === 'named';
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
  return describedMapper({
    resource,
    method: m,
    header,
    rules: [...fields, ...customFields],
    skips: (profile.skipIf ?? []).map((c, i) => compileSkip(c, `skipIf[${i}]`, columns)),
    // values are transformed, templated or constant, not parts of the line: each is checked for escapes
    valuesAreCells: false,
    jsonItems: 'as-rows',
  });
}
