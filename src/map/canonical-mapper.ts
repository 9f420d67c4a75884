// Canonical input needs no profile: JSON items pass through as they are, and a CSV whose headers are
// the item's field paths is read cell by cell with the contract's types. Cells are already in API
// form (ISO dates, `1234.56`); only what a CSV cannot say is converted: `true`/`false` → boolean,
// custom numbers → number, an empty cell → absent, the literal `null` → null where null is allowed.
import { aResource, type Method, type Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import { excelError, roundedId, scientificId } from './cell-checks.js';
import { parseCanonicalHeader, type CanonicalColumn } from './canonical-header.js';
import type { ValueFn } from './compile-value.js';
import { describedMapper, type FieldRule } from './described-mapper.js';
import { leftOutNotice, missingRequired, postOnlyFields, targetShape } from './target-fields.js';
import type { Mapper } from './types.js';
import { exactNumber } from './transforms/numbers.js';

/** Why a cell's text is not its column's value. */
class Problem {
  constructor(readonly reason: string) {}
}
/** A cell's text (trimmed, not empty) → its value, or a Problem. */
type Convert = (text: string) => unknown;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function converter(kind: string, nullable: boolean, isId: boolean): Convert {
  const base: Convert =
    kind === 'boolean'
      ? (t) => {
          const l = t.toLowerCase();
          if (l === 'true') return true;
          if (l === 'false') return false;
          return new Problem(`"${t}" is not true or false`);
        }
      : kind === 'number'
        ? (t) => {
            if (!DECIMAL.test(t)) return new Problem(`"${t}" is not a number (digits, optional "-" and "."; use a profile for 1.234,56)`);
            const n = exactNumber(t);
            return n.ok ? n.value : new Problem(n.reason);
          }
        : isId
          ? (t) => {
              const reason = scientificId(t);
              return reason ? new Problem(reason) : t;
            }
          : (t) => t;
  return nullable ? (t) => (t === 'null' ? null : base(t)) : base;
}

/** A column's value for a row: its cell trimmed, empty is absent, Excel's error values and failed conversions reported. */
function cellValue(header: readonly string[], column: string, field: string, isId: boolean, convert: Convert): ValueFn {
  // where the reader's cells hold this column (the last of equal names wins, as in `row`)
  const at = header.lastIndexOf(column);
  return (row, ctx) => {
    const text = ((Array.isArray(row) ? (row as readonly string[])[at] : (row as Record<string, string | undefined>)[column]) ?? '').trim();
    if (text === '') return undefined;
    // a workbook's number cell as an id: Excel may have dropped digits past the 15th
    const problem = excelError(text) ?? (isId && ctx.types?.[at] === 'n' ? roundedId(text) : undefined);
    const value = problem === undefined ? convert(text) : new Problem(problem);
    if (!(value instanceof Problem)) return value;
    ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column, field, reason: value.reason });
    return undefined;
  };
}

export function canonicalMapper(opts: {
  resource: Resource;
  method?: Method;
  header: readonly string[];
  unnamedAtEnd?: readonly string[];
  file: string;
}): Mapper {
  const { resource, header, file } = opts;
  const method = opts.method ?? 'post';
  const shape = targetShape(resource, method);
  // a trailing delimiter's columns name no field (the reader warns when one holds data)
  const ignored = new Set(opts.unnamedAtEnd);
  const parsed = parseCanonicalHeader(
    ignored.size ? header.filter((h) => !ignored.has(h)) : header,
    shape,
    resource,
    file,
    method === 'patch' ? postOnlyFields(resource) : undefined,
  );
  // one export serves both methods: what PATCH cannot send is left out, said once for the file
  const leftOut = parsed.filter((c) => c.kind === 'post-only');
  const columns = parsed.filter((c) => c.kind !== 'post-only');
  const missing = missingRequired(
    shape,
    columns.flatMap((c) => (c.kind === 'field' ? [c.path] : [])),
  );
  if (missing.length) {
    throw new ConfigError(`${file}: no column for ${missing.map((m) => `"${m}"`).join(', ')}, required in ${aResource(resource)} item`, {
      suggestion: `add the column${missing.length > 1 ? 's' : ''}, or map the export with a profile (batch-sync init ${file} --resource ${resource})`,
    });
  }
  const named = shape.customFields === 'named';
  const rules = columns.map((c: Exclude<CanonicalColumn, { kind: 'post-only' }>): FieldRule => {
    if (c.kind === 'field') {
      return {
        kind: 'field',
        path: c.path,
        value: cellValue(header, c.column, c.path, c.target.isId, converter(c.target.kind, c.target.nullable, c.target.isId)),
      };
    }
    const value = cellValue(header, c.column, `customFields.${c.key}`, false, converter(c.type, false, false));
    return { kind: 'custom', key: c.key, type: c.type, name: named ? c.name : undefined, value };
  });
  // cells are the line's own text: one escape check of the line serves them all
  const mapper = describedMapper({ resource, method, header, rules, skips: [], valuesAreCells: true, jsonItems: 'as-is' });
  if (leftOut.length === 0) return mapper;
  const names = leftOut.map((c) => `"${c.column}"`).join(', ');
  return {
    ...mapper,
    notes: [
      leftOutNotice(
        `${leftOut.length === 1 ? 'column' : 'columns'} ${names}`,
        leftOut.map((c) => c.path),
      ),
    ],
  };
}
