// One field of a profile compiled into a closure over a row: source (column, columns, const,
// template or rowHash) → trim → Excel checks → replace → default → lookup → value map → text
// transforms → conversion. Built once per file; per row it only reads cells and calls functions
// already chosen.
import type { Diagnostic } from '../util/diagnostic.js';
import { excelError, roundedId, scientificId } from './cell-checks.js';
import type { ColumnResolver, RowLike } from './columns.js';
import { compileLatest, type DateOf } from './profile-family.js';
import { CONVERSIONS, type FieldSpec, type TransformName } from './profile-schema.js';
import type { LookupView } from './lookup-table.js';
import { shorten } from '../shorten.js';
import { compileRowHash } from './row-hash.js';
import type { LeafKind } from './target-fields.js';
import { parseTemplate } from './template.js';
import { compileReplace, replaceRuleName } from './transforms/replace.js';
import { Failure, TEXT, conversionFor, type ConversionSettings } from './transforms/index.js';
import { fold } from './transforms/text.js';

export interface RowContext {
  file: string;
  line: number;
  problems: Diagnostic[];
  /** A workbook row's type letters, by header index (RowRecord.types): typed cells skip locale formats. */
  types?: string;
}
/** The value for the item, or undefined when the field is absent (problems go to `ctx`). */
export type ValueFn = (row: RowLike, ctx: RowContext) => unknown;

export interface ValueTarget {
  /** What diagnostics name as the field (`amount.value`, `customFields.sector`). */
  field: string;
  kind: LeafKind;
  isId: boolean;
  /** A required field without a default: an empty value is a row error (lookup's says why it is empty). */
  required?: boolean;
}

/** Where a source's text came from, for a diagnostic: filled in by each call (one per field, reused row to row). */
interface SourceAt {
  column: string | undefined;
  problem: string | undefined;
  /** The header index of the cell the text is (-1 for templates): where its type letter is. */
  index: number;
}
/**
 * A row's text for the field; fills `at`. Not an object per call: a profile of 11 fields made 11 of
 * them per row, most of the read worker's garbage once the items were no longer built.
 */
type Source = (row: RowLike, at: SourceAt, types?: string) => string;

/** A family cell's date, to find the latest: read as the field reads its dates (its format, the profile's zone). */
function familyDates(spec: FieldSpec, settings: ConversionSettings): DateOf {
  const read = conversionFor('datetime', 'datetime', { ...settings, dateFormat: spec.format ?? settings.dateFormat })!;
  const typed = conversionFor('datetime', 'datetime', { ...settings, dateFormat: 'YYYY-MM-DD' })!;
  return (text, isDateCell) => {
    const excel = excelError(text);
    if (excel) return excel;
    const out = (isDateCell ? typed : read)(text);
    return out instanceof Failure ? out.reason : Date.parse(out as string);
  };
}

function compileSource(spec: FieldSpec, where: string, columns: ColumnResolver, settings: ConversionSettings): Source | { constant: unknown } {
  if (spec.const !== undefined) return { constant: spec.const };
  if (spec.latestOf !== undefined) return compileLatest(spec.latestOf, spec.take ?? 'name', columns.header, columns.reader, familyDates(spec, settings));
  if (spec.rowHash !== undefined) {
    const id = compileRowHash(spec.rowHash, where, columns);
    return (row, at) => {
      at.column = undefined;
      at.index = -1;
      return id(row);
    };
  }
  if (spec.template !== undefined) {
    const parsed = parseTemplate(spec.template);
    if (!parsed.ok) throw new Error(`unchecked template at ${where}`); // profile-targets reports it first
    const parts = parsed.parts.map((p): { col: string; cell: (row: RowLike) => string | undefined; fns: ((s: string) => string)[] } | string => {
      if ('literal' in p) return p.literal;
      const col = columns.resolve(p.column, `${where}.template`);
      return { col, cell: columns.reader(col), fns: p.transforms.map((t) => TEXT[t]) };
    });
    const label = parts.flatMap((p) => (typeof p === 'string' ? [] : [p.col])).join(', ');
    return (row, at) => {
      let text = '';
      let anyCell = false;
      for (const part of parts) {
        if (typeof part === 'string') {
          text += part;
          continue;
        }
        let v = (part.cell(row) ?? '').trim();
        const problem = excelError(v);
        if (problem) {
          at.column = part.col;
          at.problem = problem;
          return '';
        }
        for (const f of part.fns) v = f(v);
        if (v) anyCell = true;
        text += v;
      }
      at.column = label;
      at.index = -1;
      // a template whose cells are all empty is an empty value (so `default` applies)
      return anyCell ? text : '';
    };
  }
  const cols = (spec.column ?? []).map((c, i) => columns.resolve(c, spec.column!.length > 1 ? `${where}.column[${i}]` : `${where}.column`));
  const cells = cols.map((col) => columns.reader(col));
  const indexes = cols.map((col) => columns.index(col));
  if (cols.length === 1) {
    const col = cols[0]!;
    const cell = cells[0]!;
    const index = indexes[0]!;
    return (row, at) => {
      at.column = col;
      at.index = index;
      return cell(row) ?? '';
    };
  }
  return (row, at) => {
    for (let i = 0; i < cols.length; i++) {
      const text = cells[i]!(row);
      if (text !== undefined && text.trim() !== '') {
        at.column = cols[i];
        at.index = indexes[i]!;
        return text;
      }
    }
    at.column = cols[0];
    at.index = -1;
    return '';
  };
}

/** A string through text transforms and conversion; non-strings (const true, map → 42) are final. */
type Finish = (value: unknown, column: string | undefined, ctx: RowContext, typed?: boolean) => unknown;
/** A text through the value map (else `finish`); `typed`: the text is a typed workbook cell's. */
type Mapped = (text: string, column: string | undefined, ctx: RowContext, typed?: boolean) => unknown;

function compileFinish(spec: FieldSpec, target: ValueTarget, settings: ConversionSettings): Finish {
  const chain = spec.transform ?? [];
  const last = chain[chain.length - 1];
  const conversionName = last && (CONVERSIONS as readonly string[]).includes(last) ? last : undefined;
  const texts = chain
    .filter((n): n is Exclude<TransformName, (typeof CONVERSIONS)[number]> => !(CONVERSIONS as readonly string[]).includes(n))
    .map((n) => TEXT[n]);
  const convert = conversionFor(conversionName, target.kind, {
    decimal: spec.decimal ?? settings.decimal,
    dateFormat: spec.format ?? settings.dateFormat,
    clock: settings.clock,
  });
  // a workbook's typed cell is already `1234.5` or ISO-8601 whatever the profile's locale formats say;
  // a number cell is no date (its serial would depend on the workbook's date system)
  const convertTyped = conversionFor(conversionName, target.kind, { decimal: '.', dateFormat: 'YYYY-MM-DD', clock: settings.clock });
  return (value, column, ctx, typed = false) => {
    if (typeof value !== 'string') return value;
    let text = value;
    for (const f of texts) text = f(text);
    if (!convert) return text;
    const out = typed ? convertTyped!(text) : convert(text);
    if (out instanceof Failure) {
      ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column, field: target.field, reason: out.reason });
      return undefined;
    }
    return out;
  };
}

// a value map's and `otherwise`'s values are the profile's text, not the cell: never typed
function compileMap(spec: FieldSpec, field: string, finish: Finish): Mapped {
  if (!spec.map) return finish;
  const map = new Map(Object.entries(spec.map).map(([k, v]) => [fold(k.trim()), v]));
  const keys = Object.keys(spec.map);
  const listed = `${keys
    .slice(0, 8)
    .map((k) => `"${k}"`)
    .join(', ')}${keys.length > 8 ? ', …' : ''}`;
  return (text, column, ctx) => {
    const key = fold(text.trim());
    const hit = map.get(key);
    if (hit !== undefined || map.has(key)) return finish(hit, column, ctx);
    return otherwiseOr(spec, finish, ctx, {
      column,
      field,
      reason: `"${text}" is not in the value map (${listed})`,
      suggestion: 'add it to "map", or give "otherwise"',
    });
  };
}

/** A text the value map or the lookup file does not hold: the field's `otherwise`, else this problem (the row is invalid). */
function otherwiseOr(
  spec: FieldSpec,
  finish: Finish,
  ctx: RowContext,
  problem: { column: string | undefined; field: string; reason: string; suggestion: string },
): unknown {
  if (spec.otherwise !== undefined) return finish(spec.otherwise, problem.column, ctx);
  ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, ...problem });
  return undefined;
}

/** A looked-up key as a message shows it: whole when short, else its start and its length. */
function shownKey(key: string): string {
  return key.length <= 60 ? JSON.stringify(key) : `${JSON.stringify(shorten(key, 40))} (${key.length.toLocaleString('en-US')} characters)`;
}

/**
 * The value of the lookup file's row whose key the text is, then `mapped` (another file's text is never typed); `empty` for an empty value.
 * A filled cell that finds nothing is never said to be empty: a key the file lacks, and a required
 * field's key whose value is empty, each have their own reason naming the file and the profile's field.
 */
function compileLookup(
  spec: FieldSpec,
  target: ValueTarget,
  where: string,
  lookup: LookupView,
  steps: { finish: Finish; mapped: Mapped; empty: Mapped },
): Mapped {
  const article = /^[aeio]/i.test(lookup.key) ? 'an' : 'a';
  const { field } = target;
  const emptyIsError = target.required === true && spec.default === undefined;
  return (key, column, ctx) => {
    const value = lookup.get(key);
    if (value === '' && emptyIsError) {
      const reason = `is required — ${shownKey(key)} is ${article} ${lookup.key} in ${lookup.file} whose ${lookup.value} is empty (${where}.lookup): add a default to ${where}`;
      ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column, field, reason });
      return undefined;
    }
    if (value === '') return steps.empty(key, column, ctx);
    if (value !== undefined) return steps.mapped(value, column, ctx);
    const reason = `${shownKey(key)} is not ${article} ${lookup.key} in ${lookup.file} (${where}.lookup)`;
    return otherwiseOr(spec, steps.finish, ctx, { column, field, reason, suggestion: `add it to ${lookup.file}, or give "otherwise"` });
  };
}

/** `lookup`: the view of the field's table (lookup-table.ts), when the spec has a lookup. */
export function compileValue(
  spec: FieldSpec,
  target: ValueTarget,
  where: string,
  columns: ColumnResolver,
  settings: ConversionSettings,
  lookup?: LookupView,
): ValueFn {
  const source = compileSource(spec, where, columns, settings);
  const replace = compileReplace(spec.replace);
  const trim = spec.trim !== false;
  const { field } = target;
  const finish = compileFinish(spec, target, settings);
  const mapped = compileMap(spec, field, finish);
  // an empty cell (or one a replace emptied, or an empty looked-up value) takes the default
  const empty: Mapped = (_text, column, ctx) => {
    if (spec.default === undefined) return undefined;
    return typeof spec.default === 'string' ? mapped(spec.default, column, ctx) : spec.default;
  };
  const looked = lookup === undefined ? undefined : compileLookup(spec, target, where, lookup, { finish, mapped, empty });
  const emptyIsError = target.required === true && spec.default === undefined;

  const fromText = (raw: string, column: string | undefined, ctx: RowContext, type?: string): unknown => {
    const text = trim ? raw.trim() : raw;
    const excel = excelError(trim ? text : raw.trim());
    const problem = excel ?? (target.isId && text ? (type === 'n' ? roundedId(text) : scientificId(text)) : undefined);
    if (problem) {
      ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column, field, reason: problem });
      return undefined;
    }
    const replaced = replace === undefined ? text : replace.apply(text);
    if (replaced === '' && text !== '' && emptyIsError && replace !== undefined) {
      // the cell was filled: a "column … is empty" would send the user to look at the wrong thing
      const rule = replaceRuleName(spec.replace ?? [], replace.emptiedBy(text), where);
      const reason = `is required — column ${column} held ${shownKey(text)}, which ${rule} left empty: add a default to ${where}, or change the pattern`;
      ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column, field, reason });
      return undefined;
    }
    if (replaced === '') return empty(replaced, column, ctx);
    if (looked !== undefined) return looked(replaced, column, ctx);
    return mapped(replaced, column, ctx, type === 'n' || type === 'd' || type === 'b');
  };

  if (typeof source !== 'function') {
    const c = source.constant;
    return typeof c === 'string' ? (_row, ctx) => fromText(c, undefined, ctx) : () => c;
  }
  const at: SourceAt = { column: undefined, problem: undefined, index: -1 };
  return (row, ctx) => {
    at.problem = undefined;
    const text = source(row, at, ctx.types);
    if (at.problem === undefined) return fromText(text, at.column, ctx, ctx.types === undefined || at.index < 0 ? undefined : ctx.types[at.index]);
    ctx.problems.push({ severity: 'error', file: ctx.file, line: ctx.line, column: at.column, field, reason: at.problem });
    return undefined;
  };
}
