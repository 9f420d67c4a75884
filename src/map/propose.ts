// `init`'s brain: from a header and a sample of rows, a profile to start from, and an account of
// what was matched, what was left as custom fields and what the user must decide. Pure: no files,
// no printing. Placeholders (`<FILL IN: ...>`) make the profile fail validation until edited.
// Nothing is proposed that would change a value silently: a date-time stays one, a value such as
// `2024 4` or a phone number stays text, and a column empty in every sampled row feeds no field.
import type { Method, Resource } from '../contract/resources.js';
import { FILL_IN } from './load-profile.js';
import { matchColumns } from './propose/match-columns.js';
import { guessDateFormat, guessFileDecimal, guessType, type CellType } from './propose/guess.js';
import { columnFacts, looksLikeCodes, namesAnId, type ColumnFacts } from './propose/ids.js';
import { isPhoneHeader } from './propose/synonyms.js';
import { accountRules, activityRules, dealRules, externalIdRule, salesProfileRules, TIME_ZONE_NOTE, type RuleContext, type Spec } from './propose/rules.js';
import { fieldCandidates } from './propose/candidates.js';
import { missingRequired, targetShape } from './target-fields.js';
import { slug } from './transforms/text.js';

export interface ProposeInput {
  resource: Resource;
  method?: Method;
  header: readonly string[];
  /** A sample of rows (header → cell), e.g. the first 200. */
  rows: readonly Record<string, string>[];
  reader?: { delimiter?: string; encoding?: string; headerRow?: number; escape?: string; null?: string; sheet?: string; root?: string };
  /** The export's file name, for notes and for kinds its name tells (`Emails.csv`: e-mails). */
  file?: string;
}

export interface Proposal {
  /** The profile as JSON, ready to write. */
  profile: Record<string, unknown>;
  mapped: { field: string; source: string }[];
  customFields: { column: string; key: string; type: CellType }[];
  /** What the user must decide before the profile loads: profile path and why. */
  fillIn: { path: string; reason: string }[];
  /** Choices made that the user should check. */
  notes: string[];
  /** Per field, what else it could be mapped from, best first: what init tries when its check finds the field invalid in most rows. */
  candidates?: Record<string, Spec[]>;
}

/**
 * People's names: every value is letters and spaces (with the `'`, `-` and `.` names carry), and
 * most have several words (`José Peña`). Codes (`V-001`, `AB12`), user names (`jperez`) and single
 * words are not: they are ids already and stay as they are.
 */
const NAME = /^\p{L}[\p{L}\p{M}'’.-]*(?:\s+\p{L}[\p{L}\p{M}'’.-]*)*$/u;
function looksLikeNames(values: readonly string[]): boolean {
  if (!values.length || !values.every((v) => NAME.test(v))) return false;
  return values.filter((v) => /\s/.test(v)).length * 2 >= values.length;
}

export function proposeProfile(input: ProposeInput): Proposal {
  const { resource, header, rows } = input;
  const method = input.method ?? 'post';
  const shape = targetShape(resource, method);
  const cache = new Map<string, ColumnFacts>();
  const facts = (col: string) => cache.get(col) ?? cache.set(col, columnFacts(rows, col)).get(col)!;
  const values = (col: string) => facts(col).values;
  const fillIn: Proposal['fillIn'] = [];
  const notes: string[] = [];
  const fields: Record<string, Spec> = {};
  const placeholder = (path: string, what: string, reason: string) => {
    fillIn.push({ path, reason });
    return `${FILL_IN}: ${what}>`;
  };

  const { byField, used } = matchColumns(resource, header, new Set(shape.fields.keys()));
  for (const [field, column] of byField) fields[field] = { column };
  const context: RuleContext = { fields, byField, header, used, facts, notes, placeholder, rows: rows.length, file: input.file };
  if (shape.fields.has('externalId') && resource !== 'sales-profile') externalIdRule(context, resource);

  // numbers: one decimal mark for the whole file when the sample shows one
  const numericColumns = header.filter((h) => !used.has(h) || byField.get('amount.value') === h);
  const decimal = guessFileDecimal(numericColumns.flatMap((h) => values(h)));

  // dates of mapped fields: format from the sample, or a placeholder when DD/MM and MM/DD both fit
  let anyTime = false;
  const dateFormat = (path: string, column: string): string | undefined => {
    const g = guessDateFormat(values(column));
    if (!g) return undefined;
    anyTime ||= g.hasTime && !values(column).every((v) => /(Z|[+-]\d{2}:?\d{2})$/i.test(v));
    if ('ambiguous' in g) return placeholder(path, 'DD/MM/YYYY or MM/DD/YYYY', `every date in "${column}" fits both DD/MM/YYYY and MM/DD/YYYY`);
    return g.format === 'YYYY-MM-DD' ? undefined : g.format;
  };
  for (const [path, spec] of Object.entries(fields)) {
    const kind = shape.fields.get(path)?.kind;
    if ((kind === 'date' || kind === 'datetime' || kind === 'dateOrDateTime') && typeof spec.column === 'string') {
      const f = dateFormat(`fields.${path}.format`, spec.column);
      if (f) spec.format = f;
    }
  }

  if (resource === 'deal') dealRules(context);
  if (resource === 'sales-profile') salesProfileRules(context);
  if (resource === 'account') accountRules(context, shape.fields.has('type'));
  if (resource === 'activity') activityRules(context);
  idNotes(fields, values, notes);
  // a column empty in every sampled row feeds no field: the field gets a placeholder (or a rule's const) instead
  for (const [path, spec] of Object.entries(fields)) {
    if (typeof spec.column === 'string' && !values(spec.column).length && spec.default === undefined && shape.fields.get(path)?.required) {
      notes.push(`${path}: "${spec.column}" is empty in every sampled row, so it is not used`);
      delete fields[path];
    }
  }
  for (const path of missingRequired(shape, Object.keys(fields))) {
    fields[path] = { const: placeholder(`fields.${path}.const`, `value or column for ${path}`, `no column looks like ${path} (required)`) };
  }

  const { customFields, customSpecs } = proposeCustomFields(input, shape.customFields, fields, used, facts, decimal, dateFormat, notes);
  if (anyTime && !notes.includes(TIME_ZONE_NOTE)) notes.push(TIME_ZONE_NOTE);
  const profile: Record<string, unknown> = { resource };
  if (method !== 'post') profile.method = method;
  if (input.reader) profile.reader = Object.fromEntries(Object.entries(input.reader).filter(([, v]) => v !== undefined));
  profile.timeZone = 'UTC';
  if (decimal) profile.decimal = decimal;
  profile.fields = fields;
  if (customSpecs.length) profile.customFields = customSpecs;
  return { profile, mapped: describeFields(fields), customFields, fillIn, notes, candidates: fieldCandidates(resource, header, fields, facts) };
}

/** What each field is mapped from, as init prints it. */
export const describeFields = (fields: Record<string, Spec>) => Object.entries(fields).map(([field, s]) => ({ field, source: describe(s) }));

/** Every `<FILL IN: …>` left in a profile's fields, with its path and what it asks for. */
export function placeholdersOf(profile: Record<string, unknown>): Proposal['fillIn'] {
  return Object.entries(profile.fields as Record<string, Spec>).flatMap(([field, spec]) =>
    Object.entries(spec).flatMap(([key, v]) =>
      typeof v === 'string' && v.startsWith(FILL_IN) ? [{ path: `fields.${field}.${key}`, reason: v.slice(FILL_IN.length + 2, -1) }] : [],
    ),
  );
}

/** People's names where ids are expected become slugs; codes stay as they are. */
function idNotes(fields: Record<string, Spec>, values: (c: string) => string[], notes: string[]): void {
  for (const idField of ['ownerExternalId', 'agentExternalId']) {
    const spec = fields[idField];
    const col = spec?.column as string | undefined;
    if (!spec || !col || spec.transform) continue;
    const v = values(col);
    if (looksLikeNames(v)) {
      spec.transform = 'slug';
      const example = v.find((x) => /\s/.test(x))!;
      notes.push(
        `${idField}: "${col}" holds people's names (letters and spaces, several words, e.g. "${example}"); the id is their slug ("${slug(example)}"), and the sales profiles' externalId must be derived the same way`,
      );
    } else if (v.length) {
      const what = looksLikeCodes(v) ? 'codes' : 'ids';
      notes.push(`${idField}: "${col}" holds ${what} (e.g. "${v[0]}"), sent as they are: they must equal the sales profiles' externalId`);
    }
  }
}

/** A phone number as exports write it: digits with `+`, spaces, dashes or brackets (`425-555-0158`, `+55 11 9…`). */
const PHONE = /^\+?[\d\s().-]{7,}$/;
const isPhone = (v: string) => PHONE.test(v) && /^\+|\(|\d[\s-]\d/.test(v) && v.replace(/\D/g, '').length >= 7;

function proposeCustomFields(
  input: ProposeInput,
  kind: 'named' | 'unnamed' | 'none',
  fields: Record<string, Spec>,
  used: Set<string>,
  facts: (c: string) => ColumnFacts,
  decimal: ReturnType<typeof guessFileDecimal>,
  dateFormat: (path: string, column: string) => string | undefined,
  notes: string[],
) {
  const customFields: Proposal['customFields'] = [];
  const customSpecs: Spec[] = [];
  if (kind === 'none') return { customFields, customSpecs };
  const usedNow = new Set([...used, ...Object.values(fields).flatMap((s) => (typeof s.column === 'string' ? [s.column] : []))]);
  const empty: string[] = [];
  const keys = new Set<string>();
  input.header.forEach((column, i) => {
    if (usedNow.has(column) || !column.trim()) return;
    const v = facts(column).values;
    if (input.rows.length > 0 && !v.length) {
      empty.push(column);
      return;
    }
    let key = slug(column).replace(/-/g, '_') || `column_${i + 1}`;
    while (keys.has(key)) key += '_';
    keys.add(key);
    const spec: Spec = { key };
    if (kind === 'named') spec.name = column.trim();
    const date = guessDateFormat(v);
    // a number only when every value is one, and none is a phone number or a code with spaces (`2024 4`); ids stay text
    const textual = isPhoneHeader(column) || /phone|fax/i.test(column) || namesAnId(column) || v.some((x) => /\s/.test(x) || isPhone(x));
    const type: CellType = date || textual ? 'string' : guessType(v, decimal);
    spec.type = type;
    spec.column = column;
    if (date) {
      // a date-time stays a date-time, its offset kept: never cut to the date
      spec.transform = date.hasTime ? 'datetime' : 'date';
      const f = dateFormat(`customFields[${customSpecs.length}].format`, column);
      if (f) spec.format = f;
    }
    customFields.push({ column, key, type });
    customSpecs.push(spec);
  });
  if (empty.length) {
    const shown = empty.slice(0, 6).map((c) => `"${c}"`);
    notes.push(
      `left out: ${empty.length} column${empty.length === 1 ? '' : 's'} empty in every sampled row (${shown.join(', ')}${empty.length > 6 ? ', …' : ''})`,
    );
  }
  return { customFields, customSpecs };
}

function describe(s: Spec): string {
  const col = Array.isArray(s.column) ? s.column.join(' | ') : (s.column as string | undefined);
  const base =
    col !== undefined
      ? `"${col}"`
      : s.template !== undefined
        ? `template ${JSON.stringify(s.template)}`
        : s.rowHash !== undefined
          ? "rowHash (the row's content)"
          : s.latestOf !== undefined
            ? `the latest of "${s.latestOf as string}"${s.take === 'date' ? ' (its date)' : ''}`
            : `const ${JSON.stringify(s.const)}`;
  const lookup = s.lookup as { file?: string } | undefined;
  if (lookup) return `${base} (looked up in ${lookup.file})`;
  return s.transform ? `${base} (${s.transform})` : s.map ? `${base} (value map)` : base;
}
