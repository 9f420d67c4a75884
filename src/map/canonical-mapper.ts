// Canonical input needs no profile: JSON items pass through as they are, and a CSV whose headers are
// the item's field paths is read cell by cell with the contract's types. Cells are already in API
// form (ISO dates, `1234.56`); only what a CSV cannot say is converted: `true`/`false` → boolean,
// custom numbers → number, an empty cell → absent, the literal `null` → null where null is allowed.
import type { Method, Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import type { SourceRecord } from '../read/types.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { excelError, roundedId, scientificId } from './cell-checks.js';
import { parseCanonicalHeader, type CanonicalColumn } from './canonical-header.js';
import { compileItemJson, FAIL } from './item-json.js';
import { compactArrays, compileSetter } from './item-builder.js';
import { unreadable } from './records.js';
import { missingRequired, targetShape } from './target-fields.js';
import { REF_PATHS, type MapResult, type Mapper } from './types.js';

type Convert = (text: string) => unknown;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function converter(kind: string, nullable: boolean, isId: boolean, problem: (reason: string) => void): Convert {
  const base: Convert =
    kind === 'boolean'
      ? (t) => {
          const l = t.toLowerCase();
          if (l === 'true') return true;
          if (l === 'false') return false;
          problem(`"${t}" is not true or false`);
          return FAIL;
        }
      : kind === 'number'
        ? (t) => {
            if (DECIMAL.test(t)) return Number(t);
            problem(`"${t}" is not a number (digits, optional "-" and "."; use a profile for 1.234,56)`);
            return FAIL;
          }
        : isId
          ? (t) => {
              const reason = scientificId(t);
              if (!reason) return t;
              problem(reason);
              return FAIL;
            }
          : (t) => t;
  return nullable ? (t) => (t === 'null' ? null : base(t)) : base;
}

export function canonicalMapper(opts: {
  resource: Resource;
  method?: Method;
  header: readonly string[];
  unnamedAtEnd?: readonly string[];
  file: string;
}): Mapper {
  const { resource, header, file } = opts;
  const shape = targetShape(resource, opts.method ?? 'post');
  // a trailing delimiter's columns name no field (the reader warns when one holds data)
  const ignored = new Set(opts.unnamedAtEnd);
  const columns = parseCanonicalHeader(ignored.size ? header.filter((h) => !ignored.has(h)) : header, shape, resource, file);
  const missing = missingRequired(
    shape,
    columns.flatMap((c) => (c.kind === 'field' ? [c.path] : [])),
  );
  if (missing.length) {
    throw new ConfigError(`${file}: no column for ${missing.map((m) => `"${m}"`).join(', ')}, required in a ${resource} item`, {
      suggestion: `add the column${missing.length > 1 ? 's' : ''}, or map the export with a profile (batch-sync init ${file} --resource ${resource})`,
    });
  }

  // per-row state the closures report into, reset at the start of each row
  let current: { file: string; line: number; column: string; field: string; problems: Diagnostic[] };
  const report = (reason: string) =>
    current.problems.push({ severity: 'error', file: current.file, line: current.line, column: current.column, field: current.field, reason });

  const compiled = columns.map((c: CanonicalColumn) => {
    // where the reader's cells hold this column (the last of equal names wins, as in `row`)
    const at = header.lastIndexOf(c.column);
    if (c.kind === 'field') {
      return { c, at, field: c.path, set: compileSetter(c.path), convert: converter(c.target.kind, c.target.nullable, c.target.isId, report) };
    }
    return { c, at, field: `customFields.${c.key}`, set: undefined, convert: converter(c.type, false, false, report) };
  });
  // the fast path reads and converts cells as `map` does, but has nothing to report: a problem sends the row to `map`
  const quiet = () => undefined;
  const itemJson = compileItemJson<readonly string[]>(
    resource,
    opts.method ?? 'post',
    compiled.map(({ c, at }) => {
      const convert = c.kind === 'field' ? converter(c.target.kind, c.target.nullable, c.target.isId, quiet) : converter(c.type, false, false, quiet);
      return {
        target:
          c.kind === 'field'
            ? { kind: 'field', path: c.path }
            : { kind: 'custom', key: c.key, type: c.type, name: shape.customFields === 'named' ? c.name : undefined },
        value(cells) {
          const text = (cells[at] ?? '').trim();
          if (text === '') return undefined;
          return excelError(text) === undefined ? convert(text) : FAIL;
        },
      };
    }),
  );
  const named = shape.customFields === 'named';
  // a workbook row with a number cell as an id goes through `map`, which checks its digits
  const idAts = compiled.flatMap((x) => (x.c.kind === 'field' && x.c.target.isId ? [x.at] : []));
  const numberId = (types: string | undefined) => types !== undefined && idAts.some((at) => types[at] === 'n');
  // where each of the ids checked across rows is read, for `refs`
  const refColumns = REF_PATHS.map((path) => compiled.find((x) => x.c.kind === 'field' && x.c.path === path));
  const arrays = [...new Set([...shape.fields.keys()].filter((p) => p.includes('[]')).map((p) => p.slice(0, p.indexOf('['))))];

  return {
    resource,
    map(record: SourceRecord): MapResult {
      if (record.kind === 'unreadable') return unreadable(record);
      if (record.kind === 'item') {
        if (record.item === null || typeof record.item !== 'object' || Array.isArray(record.item)) {
          return { kind: 'invalid', problems: [{ severity: 'error', file: record.file, line: record.line, reason: 'expected a JSON object (an item)' }] };
        }
        return { kind: 'item', item: record.item as Record<string, unknown>, warnings: [] };
      }
      const problems: Diagnostic[] = [];
      current = { file: record.file, line: record.line, column: '', field: '', problems };
      const item: Record<string, unknown> = {};
      let custom: Record<string, unknown>[] | undefined;
      // cells by index when they come in this header's order (the CSV reader's), else by name
      const cells = record.names === header ? record.cells : undefined;
      for (const { c, at, field, set, convert } of compiled) {
        const text = ((cells ? cells[at] : record.row[c.column]) ?? '').trim();
        if (text === '') continue;
        current.column = c.column;
        current.field = field;
        const excel = excelError(text);
        if (excel) {
          report(excel);
          continue;
        }
        // a workbook's number cell as an id: Excel may have dropped digits past the 15th
        const rounded = c.kind === 'field' && c.target.isId && cells && record.types?.[at] === 'n' ? roundedId(text) : undefined;
        if (rounded) {
          report(rounded);
          continue;
        }
        const value = convert(text);
        if (value === FAIL) continue;
        if (set) set(item, value);
        else if (c.kind === 'custom') {
          (custom ??= []).push(named ? { key: c.key, type: c.type, value, name: c.name } : { key: c.key, type: c.type, value });
        }
      }
      if (custom) item.customFields = custom;
      if (arrays.length) compactArrays(item, arrays);
      if (problems.length) return { kind: 'invalid', problems, ...(typeof item.externalId === 'string' ? { externalId: item.externalId } : {}) };
      return { kind: 'item', item, warnings: [] };
    },
    json:
      itemJson &&
      ((record, refs) =>
        record.kind === 'row' && record.names === header && record.cells !== undefined && !numberId(record.types)
          ? itemJson(record.cells, record.plain, refs)
          : undefined),
    refs(record: SourceRecord): unknown[] {
      if (record.kind !== 'row') return [];
      const cells = record.names === header ? record.cells : undefined;
      // as `map` reads them: trimmed, empty is absent, `null` is null where allowed (the row is valid,
      // so no id failed its checks)
      return refColumns.map((x) => {
        if (x === undefined || x.c.kind !== 'field') return undefined;
        const text = ((cells ? cells[x.at] : record.row[x.c.column]) ?? '').trim();
        if (text === '') return undefined;
        return x.c.target.nullable && text === 'null' ? null : text;
      });
    },
  };
}
