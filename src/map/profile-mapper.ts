// A profile compiled against one file's header into a Mapper: each field and custom field becomes a
// closure, each skip condition a test, all chosen once. Per row: read cells, call closures, build.
import type { Method, Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import type { RowRecord, SourceRecord } from '../read/types.js';
import { columnResolver, type ColumnResolver, type RowLike } from './columns.js';
import { compileValue, type RowContext, type ValueFn } from './compile-value.js';
import { compactArrays, compileSetter, type Setter } from './item-builder.js';
import { compileItemJson, FAIL } from './item-json.js';
import { flattenItem, unreadable } from './records.js';
import { checkProfileTargets } from './profile-targets.js';
import type { Profile, SkipCondition } from './profile-schema.js';
import { schemaPath, targetShape } from './target-fields.js';
import { fold } from './transforms/text.js';
import { ZoneClock } from './transforms/time-zone.js';
import { REF_PATHS, type MapResult, type Mapper } from './types.js';

interface CompiledField {
  set: Setter;
  value: ValueFn;
}
interface CompiledCustomField {
  key: string;
  name: string | undefined;
  type: 'string' | 'number' | 'boolean';
  value: ValueFn;
}

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
}

export function profileMapper({ resource, method, header, file, profile }: ProfileMapperOptions): Mapper {
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

  const fields: CompiledField[] = Object.entries(profile.fields).map(([path, spec]) => {
    const target = shape.fields.get(schemaPath(path))!;
    return {
      set: compileSetter(path),
      value: compileValue(spec, { field: path, kind: target.kind, isId: target.isId }, `fields.${path}`, columns, settings),
    };
  });
  const named = shape.customFields === 'named';
  const customFields: CompiledCustomField[] = (profile.customFields ?? []).map((cf, i) => ({
    key: cf.key,
    // the display name: given, else the column it comes from, else the key
    name: named ? (cf.name ?? (cf.column?.length === 1 ? cf.column[0] : cf.key)) : undefined,
    type: cf.type,
    value: compileValue(cf, { field: `customFields.${cf.key}`, kind: cf.type, isId: false }, `customFields[${i}]`, columns, settings),
  }));
  const skips = (profile.skipIf ?? []).map((c, i) => compileSkip(c, `skipIf[${i}]`, columns));
  const arrays = [...new Set([...shape.fields.keys()].filter((p) => p.includes('[]')).map((p) => p.slice(0, p.indexOf('['))))];

  function mapRow(row: RowLike, record: { file: string; line: number }, types?: string): MapResult {
    for (const skip of skips) {
      const reason = skip(row);
      if (reason !== undefined) return { kind: 'skip', reason: `skipIf: ${reason}` };
    }
    const ctx: RowContext = { file: record.file, line: record.line, problems: [], types };
    const item: Record<string, unknown> = {};
    for (const f of fields) {
      const v = f.value(row, ctx);
      if (v !== undefined) f.set(item, v);
    }
    if (customFields.length) {
      const list: Record<string, unknown>[] = [];
      for (const cf of customFields) {
        const value = cf.value(row, ctx);
        if (value === undefined || value === null) continue; // empty cell: the custom field is omitted
        list.push(cf.name === undefined ? { key: cf.key, type: cf.type, value } : { key: cf.key, type: cf.type, value, name: cf.name });
      }
      if (list.length) item.customFields = list;
    }
    if (arrays.length) compactArrays(item, arrays);
    if (ctx.problems.length)
      return { kind: 'invalid', problems: ctx.problems, ...(typeof item.externalId === 'string' ? { externalId: item.externalId } : {}) };
    return { kind: 'item', item, warnings: [] };
  }

  /** A CSV row's cells when they come in this header's order (read by index), else its row object. */
  const cellsOrRow = (record: RowRecord): RowLike => (record.names === header && record.cells !== undefined ? record.cells : record.row);

  // the fast path takes each value as `map` does; a problem it would report sends the row to `map`
  const quiet: RowContext = { file: '', line: 0, problems: [] };
  const quietly = (value: ValueFn) => (row: RowLike) => {
    const v = value(row, quiet);
    if (quiet.problems.length === 0) return v;
    quiet.problems.length = 0;
    return FAIL;
  };
  // where each of the ids checked across rows comes from, for `refs`
  const paths = Object.keys(profile.fields);
  const refValues = REF_PATHS.map((path) => {
    const at = paths.indexOf(path);
    return at < 0 ? undefined : quietly(fields[at]!.value);
  });
  const itemJson = compileItemJson<RowLike>(resource, m, [
    ...Object.keys(profile.fields).map((path, i) => ({ target: { kind: 'field' as const, path }, value: quietly(fields[i]!.value) })),
    ...customFields.map((cf) => ({ target: { kind: 'custom' as const, key: cf.key, type: cf.type, name: cf.name }, value: quietly(cf.value) })),
  ]);

  return {
    resource,
    // values are transformed, templated or constant, not parts of the line: each is checked for escapes
    json:
      itemJson &&
      ((record, refs) => {
        // a workbook's typed cells are converted by `map`, which knows their types
        if (record.kind !== 'row' || record.types !== undefined) return undefined;
        const row = cellsOrRow(record);
        for (const skip of skips) if (skip(row) !== undefined) return undefined;
        return itemJson(row, undefined, refs);
      }),
    // for a row known to map to a valid item without warnings (an incremental rerun's unchanged row):
    // its ids as `map` gives them, without the other fields
    refs(record: SourceRecord): unknown[] {
      if (record.kind !== 'row') return [];
      const row = cellsOrRow(record);
      return refValues.map((value) => value?.(row));
    },
    map(record: SourceRecord): MapResult {
      if (record.kind === 'unreadable') return unreadable(record);
      if (record.kind === 'item') return mapRow(flattenItem(record.item), record);
      const row = cellsOrRow(record);
      return mapRow(row, record, row === record.cells ? record.types : undefined);
    },
  };
}
