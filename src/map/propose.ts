// `init`'s brain: from a header and a sample of rows, a profile to start from, and an account of
// what was matched, what was left as custom fields and what the user must decide. Pure: no files,
// no printing. Placeholders (`<FILL IN: ...>`) make the profile fail validation until edited.
import type { Method, Resource } from '../contract/resources.js';
import { FILL_IN } from './load-profile.js';
import { matchColumns } from './propose/match-columns.js';
import { guessDateFormat, guessFileDecimal, guessType, type CellType } from './propose/guess.js';
import { FULL_NAME, idLikeHeader, WON_STAGE, squash } from './propose/synonyms.js';
import { missingRequired, targetShape } from './target-fields.js';
import { slug } from './transforms/text.js';

export interface ProposeInput {
  resource: Resource;
  method?: Method;
  header: readonly string[];
  /** A sample of rows (header → cell), e.g. the first 200. */
  rows: readonly Record<string, string>[];
  reader?: { delimiter?: string; encoding?: string; headerRow?: number; sheet?: string };
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
}

type Spec = Record<string, unknown>;

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
/** Ids as exports write them: one token of letters, digits and `-_./#`, with a digit (`V-001`, `SKU_42`, `00417`). */
const CODE = /^(?=[^\s]*\d)[\p{L}\d][\p{L}\d\-_./#]*$/u;
const looksLikeCodes = (values: readonly string[]) => values.length > 0 && values.every((v) => CODE.test(v) && v.length <= 40);
const CURRENCY_SIGNS: [RegExp, string][] = [
  [/R\$/, 'BRL'],
  [/€/, 'EUR'],
  [/S\/\.?/, 'PEN'],
  [/£/, 'GBP'],
  [/US\$|USD/, 'USD'],
];

export function proposeProfile(input: ProposeInput): Proposal {
  const { resource, header, rows } = input;
  const method = input.method ?? 'post';
  const shape = targetShape(resource, method);
  const values = (col: string) => rows.map((r) => (r[col] ?? '').trim()).filter((v) => v !== '');
  const fillIn: Proposal['fillIn'] = [];
  const notes: string[] = [];
  const fields: Record<string, Spec> = {};
  const placeholder = (path: string, what: string, reason: string) => {
    fillIn.push({ path, reason });
    return `${FILL_IN}: ${what}>`;
  };

  const { byField, used } = matchColumns(resource, header, new Set(shape.fields.keys()));
  for (const [field, column] of byField) fields[field] = { column };

  // numbers: one decimal mark for the whole file when the sample shows one
  const numericColumns = header.filter((h) => !used.has(h) || byField.get('amount.value') === h);
  const decimal = guessFileDecimal(numericColumns.flatMap((h) => values(h)));

  // dates of mapped fields: format from the sample, or a placeholder when DD/MM and MM/DD both fit
  let anyTime = false;
  const dateFormat = (path: string, column: string): string | undefined => {
    const g = guessDateFormat(values(column));
    if (!g) return undefined;
    anyTime ||= g.hasTime;
    if ('ambiguous' in g) return placeholder(path, 'DD/MM/YYYY or MM/DD/YYYY', `every date in "${column}" fits both DD/MM/YYYY and MM/DD/YYYY`);
    return g.format === 'YYYY-MM-DD' ? undefined : g.format;
  };
  for (const [path, spec] of Object.entries(fields)) {
    const kind = shape.fields.get(path)?.kind;
    if (kind === 'date' || kind === 'datetime' || kind === 'dateOrDateTime') {
      const f = dateFormat(`fields.${path}.format`, spec.column as string);
      if (f) spec.format = f;
    }
  }

  if (resource === 'deal') proposeDealRules(fields, byField, values, notes, placeholder);
  if (resource === 'sales-profile') proposeProfileRules(fields, header, used, values, notes, placeholder);
  if (resource === 'account' && shape.fields.has('type') && !fields.type) {
    fields.type = { const: 'COMPANY' };
    notes.push('type: no column found; every account is sent as COMPANY (CONTACT and CLIENT are the other values seen)');
  }
  // people's names where ids are expected become slugs; codes stay as they are
  for (const idField of ['ownerExternalId', 'agentExternalId']) {
    const spec = fields[idField];
    const col = spec?.column as string | undefined;
    if (!spec || !col) continue;
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
  for (const path of missingRequired(shape, Object.keys(fields))) {
    fields[path] = { const: placeholder(`fields.${path}.const`, `value or column for ${path}`, `no column looks like ${path} (required)`) };
  }

  const usedNow = new Set([...used, ...Object.values(fields).flatMap((s) => (typeof s.column === 'string' ? [s.column] : []))]);
  const customFields: Proposal['customFields'] = [];
  const customSpecs: Spec[] = [];
  if (shape.customFields !== 'none') {
    const keys = new Set<string>();
    header.forEach((column, i) => {
      if (usedNow.has(column) || !column.trim()) return;
      let key = slug(column).replace(/-/g, '_') || `column_${i + 1}`;
      while (keys.has(key)) key += '_';
      keys.add(key);
      const v = values(column);
      const spec: Spec = { key };
      if (shape.customFields === 'named') spec.name = column.trim();
      const date = guessDateFormat(v);
      const type: CellType = date ? 'string' : guessType(v, decimal);
      spec.type = type;
      spec.column = column;
      if (date) {
        spec.transform = 'date';
        const f = dateFormat(`customFields[${customSpecs.length}].format`, column);
        if (f) spec.format = f;
      }
      customFields.push({ column, key, type });
      customSpecs.push(spec);
    });
  }

  if (anyTime) notes.push('timeZone: times without an offset are read as UTC; set "timeZone" (e.g. America/Sao_Paulo) if they are local times');
  const profile: Record<string, unknown> = { resource };
  if (method !== 'post') profile.method = method;
  if (input.reader) profile.reader = Object.fromEntries(Object.entries(input.reader).filter(([, v]) => v !== undefined));
  profile.timeZone = 'UTC';
  if (decimal) profile.decimal = decimal;
  profile.fields = fields;
  if (customSpecs.length) profile.customFields = customSpecs;
  const mapped = Object.entries(fields).map(([field, s]) => ({ field, source: describe(s) }));
  return { profile, mapped, customFields, fillIn, notes };
}

function describe(s: Spec): string {
  const col = Array.isArray(s.column) ? s.column.join(' | ') : (s.column as string | undefined);
  const base = col !== undefined ? `"${col}"` : s.template !== undefined ? `template ${JSON.stringify(s.template)}` : `const ${JSON.stringify(s.const)}`;
  return s.transform ? `${base} (${s.transform})` : s.map ? `${base} (value map)` : base;
}

type Placeholder = (path: string, what: string, reason: string) => string;

function proposeDealRules(
  fields: Record<string, Spec>,
  byField: Map<string, string>,
  values: (c: string) => string[],
  notes: string[],
  placeholder: Placeholder,
) {
  // one person column serves as both owner and agent
  if (!fields.ownerExternalId && fields.agentExternalId) {
    fields.ownerExternalId = { ...fields.agentExternalId };
    notes.push(`ownerExternalId: no owner column; the agent "${byField.get('agentExternalId')}" is also the owner`);
  }
  if (!fields.agentExternalId && fields.ownerExternalId) {
    fields.agentExternalId = { ...fields.ownerExternalId };
    notes.push(`agentExternalId: no agent column; the owner "${byField.get('ownerExternalId')}" is also the agent`);
  }
  const stage = byField.get('currentStage.value');
  if (!fields.isWon && stage) {
    const won = [...new Set(values(stage).filter((v) => WON_STAGE.test(v)))];
    fields.isWon = { column: stage, map: Object.fromEntries(won.map((w) => [w, true])), otherwise: false };
    notes.push(
      `isWon: from "${stage}": ${won.length ? won.map((w) => `"${w}"`).join(', ') : 'no value in the sample'} means won; add other won stages to the map`,
    );
  }
  if (stage && !fields['currentStage.pipelineName']) {
    fields['currentStage.pipelineName'] = {
      const: placeholder('fields.currentStage.pipelineName.const', 'pipeline name', 'the export has no pipeline column; give the pipeline name the API knows'),
    };
  }
  const amount = byField.get('amount.value');
  if (amount && !fields['amount.currency']) {
    const sample = values(amount).join(' ');
    const sign = CURRENCY_SIGNS.find(([re]) => re.test(sample));
    if (sign) {
      fields['amount.currency'] = { const: sign[1] };
      notes.push(`amount.currency: ${sign[1]}, from the currency sign in "${amount}"`);
    }
  }
  if (amount && values(amount).length < 1) notes.push(`amount.value: "${amount}" is empty in the sample`);
  // ISO-4217 codes are upper case; spreadsheets often hold `clp` or `Brl`
  const currency = byField.get('amount.currency');
  if (currency && fields['amount.currency']?.column && values(currency).some((v) => v.trim() !== v.trim().toUpperCase())) {
    fields['amount.currency'].transform = 'upper';
    notes.push(`amount.currency: "${currency}" has lower-case codes in the sample; they are upper-cased (ISO-4217)`);
  }
}

function proposeProfileRules(
  fields: Record<string, Spec>,
  header: readonly string[],
  used: Set<string>,
  values: (c: string) => string[],
  notes: string[],
  placeholder: Placeholder,
) {
  // no column is named like an id: one whose values are unique codes is (`Clave`: V-001, V-002…)
  if (!fields.externalId) {
    const taken = new Set([...used, ...Object.values(fields).flatMap((s) => (typeof s.column === 'string' ? [s.column] : []))]);
    const candidates = header.filter((h) => !taken.has(h) && h.trim());
    const unique = (h: string) => {
      const v = values(h);
      return v.length > 0 && new Set(v).size === v.length && !guessDateFormat(v);
    };
    const byHeader = candidates.find((h) => idLikeHeader(h) && unique(h));
    const byValues = byHeader ?? candidates.find((h) => unique(h) && looksLikeCodes(values(h)));
    if (byValues) {
      fields.externalId = { column: byValues };
      used.add(byValues);
      const why = byHeader ? 'is named like an id and its values are unique' : 'holds unique codes';
      notes.push(`externalId: "${byValues}" ${why} (e.g. "${values(byValues)[0]}"): it is taken as the id; deals must name owners by it`);
    }
  }
  const full = findFullName(header, used);
  if (full && !fields['profile.firstName']) {
    fields['profile.firstName'] = { column: full, transform: 'firstName' };
    if (!fields['profile.lastName']) fields['profile.lastName'] = { column: full, transform: 'lastName' };
    notes.push(`profile: "${full}" is split: the last word is the last name, the rest the first name`);
  }
  if (!fields.externalId && full) {
    fields.externalId = { column: full, transform: 'slug' };
    notes.push(`externalId: no id column; the slug of "${full}" (deals must name owners the same way)`);
  } else if (!fields.externalId && fields.email) {
    fields.externalId = { column: fields.email.column };
    notes.push('externalId: no id column; the e-mail address is the id');
  }
  if (!fields.email && fields.externalId && full) {
    fields.email = { template: placeholder('fields.email.template', `e-mail, e.g. {${full}|slug}@yourcompany.com`, 'the export has no e-mail column') };
  }
}

function findFullName(header: readonly string[], used: Set<string>): string | undefined {
  const wanted = FULL_NAME.map(squash);
  for (const w of wanted) {
    const hit = header.find((h) => !used.has(h) && squash(h) === w);
    if (hit) return hit;
  }
  return undefined;
}
