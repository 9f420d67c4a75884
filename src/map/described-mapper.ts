// One mapping description per mapper — each field's value closure in the order the item is built,
// and the rows to skip — from which all three of a Mapper's uses are derived: `map` builds the
// item, `json` writes its JSON without building it (item-json.ts), `refs` reads its cross-row ids.
// A profile and a canonical header differ only in how they describe the fields; nothing here
// knows which it serves, so the three uses cannot drift apart.
import type { Method, Resource } from '../contract/resources.js';
import type { RowRecord, SourceRecord } from '../read/types.js';
import type { RowLike } from './columns.js';
import type { RowContext, ValueFn } from './compile-value.js';
import { compactArrays, compileSetter } from './item-builder.js';
import { compileItemJson, FAIL } from './item-json.js';
import { flattenItem, itemAsIs, unreadable } from './records.js';
import { targetShape } from './target-fields.js';
import { REF_PATHS, type MapResult, type Mapper } from './types.js';

/** A field of the item and the closure that gives its value for a row (problems go to the row's context). */
export type FieldRule =
  | { kind: 'field'; path: string; value: ValueFn }
  | { kind: 'custom'; key: string; name: string | undefined; type: 'string' | 'number' | 'boolean'; value: ValueFn };

export interface MappingDescription {
  resource: Resource;
  method: Method;
  /** The CSV header the rules read cells by; undefined for JSON sources. */
  header: readonly string[] | undefined;
  /** In the order `map` fills the item and reports problems. */
  rules: readonly FieldRule[];
  /** A reason to skip the row, or undefined. */
  skips: readonly ((row: RowLike) => string | undefined)[];
  /** Every value is a cell as the line holds it (a canonical CSV): one escape check of the line serves them all. */
  valuesAreCells: boolean;
  /** What a JSON item becomes: read as a row of dotted keys (a profile), or passed through as it is (canonical input). */
  jsonItems: 'as-rows' | 'as-is';
}

/** The mapper a description yields. */
export function describedMapper(d: MappingDescription): Mapper {
  const shape = targetShape(d.resource, d.method);
  const arrays = [...new Set([...shape.fields.keys()].filter((p) => p.includes('[]')).map((p) => p.slice(0, p.indexOf('['))))];
  const fields = d.rules.map((r) => (r.kind === 'field' ? { rule: r, set: compileSetter(r.path) } : { rule: r, set: undefined }));

  function mapRow(row: RowLike, record: { file: string; line: number }, types?: string): MapResult {
    for (const skip of d.skips) {
      const reason = skip(row);
      if (reason !== undefined) return { kind: 'skip', reason: `skipIf: ${reason}` };
    }
    const ctx: RowContext = { file: record.file, line: record.line, problems: [], types };
    const item: Record<string, unknown> = {};
    let custom: Record<string, unknown>[] | undefined;
    for (const { rule, set } of fields) {
      const value = rule.value(row, ctx);
      if (set) {
        if (value !== undefined) set(item, value);
      } else if (rule.kind === 'custom' && value !== undefined && value !== null) {
        // a custom field without a value is left out
        (custom ??= []).push(rule.name === undefined ? { key: rule.key, type: rule.type, value } : { key: rule.key, type: rule.type, value, name: rule.name });
      }
    }
    if (custom) item.customFields = custom;
    if (arrays.length) compactArrays(item, arrays);
    if (ctx.problems.length)
      return { kind: 'invalid', problems: ctx.problems, ...(typeof item.externalId === 'string' ? { externalId: item.externalId } : {}) };
    return { kind: 'item', item, warnings: [] };
  }

  // json and refs take each value as `map` does; a problem `map` would report makes it FAIL
  const quiet: RowContext = { file: '', line: 0, problems: [] };
  const quietly = (value: ValueFn) => (row: RowLike) => {
    const v = value(row, quiet);
    if (quiet.problems.length === 0) return v;
    quiet.problems.length = 0;
    return FAIL;
  };
  const itemJson = compileItemJson<RowLike>(
    d.resource,
    d.method,
    d.rules.map((r) => ({
      target: r.kind === 'field' ? { kind: 'field' as const, path: r.path } : { kind: 'custom' as const, key: r.key, type: r.type, name: r.name },
      value: quietly(r.value),
    })),
  );
  const refValues = REF_PATHS.map((path) => {
    const rule = d.rules.find((r) => r.kind === 'field' && r.path === path);
    return rule && quietly(rule.value);
  });
  /** A CSV row's cells when they come in this header's order (read by index), else its row object. */
  const cellsOrRow = (record: RowRecord): RowLike => (record.names === d.header && record.cells !== undefined ? record.cells : record.row);
  /** A workbook row's cell types, by the index of the cells read (RowRecord.types): a typed cell is converted by its type. */
  const typesOf = (record: RowRecord, row: RowLike) => (row === record.cells ? record.types : undefined);

  return {
    resource: d.resource,
    map(record: SourceRecord): MapResult {
      if (record.kind === 'unreadable') return unreadable(record);
      if (record.kind === 'item') return d.jsonItems === 'as-is' ? itemAsIs(record) : mapRow(flattenItem(record.item), record);
      const row = cellsOrRow(record);
      return mapRow(row, record, typesOf(record, row));
    },
    json:
      itemJson &&
      ((record, refs) => {
        if (record.kind !== 'row') return undefined;
        const row = cellsOrRow(record);
        for (const skip of d.skips) if (skip(row) !== undefined) return undefined;
        // the values see the row's cell types as they do in `map`
        quiet.types = typesOf(record, row);
        return itemJson(row, d.valuesAreCells && row === record.cells ? record.plain : undefined, refs);
      }),
    // for a row known to map to a valid item without warnings (an incremental rerun's unchanged row):
    // its ids as `map` gives them, without the other fields
    refs(record: SourceRecord): unknown[] {
      if (record.kind !== 'row') return [];
      const row = cellsOrRow(record);
      quiet.types = typesOf(record, row);
      return refValues.map((value) => {
        const v = value?.(row);
        return v === FAIL ? undefined : v;
      });
    },
  };
}
