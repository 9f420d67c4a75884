// What init proposes per record kind once columns are matched by name: the deal's won flag, owner,
// stage and currency, the sales profile's id and name, the account's type, the activity's type and
// direction. Each choice it makes adds a note (shown under `check:`); what the export cannot say
// becomes a placeholder. Pure: the sample in, specs and notes out.
import { basename } from 'node:path';
import type { Resource } from '../../contract/resources.js';
import { type ColumnFacts, isUniqueKey, namedLikeId, ownIdRepeats, uniqueIdColumn } from './ids.js';
import { ACTUAL_CLOSE_DATE, FULL_NAME, SYNONYMS, WON_STAGE, squash } from './synonyms.js';
import { stageDateFamilies, stageFamilyFields } from '../profile-family.js';
import { accountTypeMap, activityTypeMap, activityTypeOf, currencyNameMap, directionMap } from './value-maps.js';
import { SEEN_VALUES } from '../../contract/fields.js';
import { wonRule } from './won.js';
import { kindFromFileName } from './guess-resource.js';
import { slug } from '../transforms/text.js';

export type Spec = Record<string, unknown>;

export const TIME_ZONE_NOTE = 'timeZone: times without an offset are read as UTC; set "timeZone" (e.g. America/Sao_Paulo) if they are local times';
type Placeholder = (path: string, what: string, reason: string) => string;

export interface RuleContext {
  fields: Record<string, Spec>;
  byField: Map<string, string>;
  header: readonly string[];
  used: Set<string>;
  facts: (column: string) => ColumnFacts;
  notes: string[];
  placeholder: Placeholder;
  /** Sampled rows. */
  rows: number;
  file?: string;
}

const CURRENCY_SIGNS: [RegExp, string][] = [
  [/R\$/, 'BRL'],
  [/€/, 'EUR'],
  [/S\/\.?/, 'PEN'],
  [/£/, 'GBP'],
  [/US\$|USD/, 'USD'],
];
const taken = (c: RuleContext) => new Set([...c.used, ...Object.values(c.fields).flatMap((s) => (typeof s.column === 'string' ? [s.column] : []))]);

export function dealRules(c: RuleContext): void {
  const { fields, byField, facts, notes, placeholder } = c;
  ownerOfFewValues(c);
  // one person column serves as both owner and agent
  if (!fields.ownerExternalId && fields.agentExternalId) {
    fields.ownerExternalId = { ...fields.agentExternalId };
    notes.push(`ownerExternalId: no owner column; the agent "${fields.agentExternalId.column}" is also the owner`);
  }
  if (!fields.agentExternalId && fields.ownerExternalId?.column) {
    fields.agentExternalId = { ...fields.ownerExternalId };
    notes.push(`agentExternalId: no agent column; the owner "${fields.ownerExternalId.column}" is also the agent`);
  }
  if (!fields.ownerExternalId && !fields.agentExternalId) {
    // one person owns them all: the same id in both, and (with no users file) a sales profile derived for it
    const what = 'id of the sales profile who owns these deals';
    const why = 'the export has no owner column';
    fields.ownerExternalId = { const: placeholder('fields.ownerExternalId.const', what, why) };
    fields.agentExternalId = { const: placeholder('fields.agentExternalId.const', what, why) };
  }
  stageFamilyRule(c);
  wonRule(c);
  const stage = byField.get('currentStage.value');
  if (stage && fields['currentStage.value'] && !fields['currentStage.pipelineName']) {
    fields['currentStage.pipelineName'] = {
      const: placeholder('fields.currentStage.pipelineName.const', 'pipeline name', 'the export has no pipeline column; give the pipeline name the API knows'),
    };
  }
  const amount = fields['amount.value']?.column as string | undefined;
  if (amount && !fields['amount.currency']) {
    const sign = CURRENCY_SIGNS.find(([re]) => re.test(facts(amount).values.join(' ')));
    if (sign) {
      fields['amount.currency'] = { const: sign[1] };
      notes.push(`amount.currency: ${sign[1]}, from the currency sign in "${amount}"`);
    }
  }
  currencyRule(c);
  closeDateRule(c);
  const empty = amount ? facts(amount).empty : 0;
  if (amount && empty > 0 && facts(amount).values.length > 0 && fields['amount.value']?.default === undefined) {
    fields['amount.value']!.default = '0';
    notes.push(
      `amount.value: "${amount}" is empty in ${empty} of ${c.rows} sampled rows (open deals, usually): those are sent as 0; remove "default" to have them refused instead`,
    );
  }
}

/**
 * No stage column, but a family of stage-date columns (HubSpot's `date_entered_<stage>`): the current
 * stage is the one whose date is latest in the row, and, where the pipeline is known (a pipeline
 * column, or named in each stage's label), the history is one stage per column where its date is
 * filled. With the pipeline a placeholder, the history is left out (one placeholder, not one per
 * stage) and a note says how to add it. A won-looking stage (`closedwon`) makes isWon.
 */
function stageFamilyRule(c: RuleContext): void {
  const { fields, header, notes, placeholder, used } = c;
  if (fields['currentStage.value']) return;
  const [family] = stageDateFamilies(header);
  if (!family) return;
  const known = fields['currentStage.pipelineName'];
  const pipeline = known ?? {
    const: placeholder('fields.currentStage.pipelineName.const', 'pipeline name', 'the export has no pipeline column; give the pipeline name the API knows'),
  };
  const proposed = stageFamilyFields(family, pipeline);
  const named = proposed['currentStage.pipelineName'] !== pipeline;
  for (const [path, spec] of Object.entries(proposed)) if (known || named || !path.startsWith('stages[')) fields[path] = spec;
  for (const { column } of family.columns) used.add(column);
  const times = family.columns.flatMap((f) => c.facts(f.column).values).filter((v) => /\d:\d\d/.test(v));
  if (times.some((v) => !/(Z|[+-]\d{2}:?\d{2})$/i.test(v)) && !notes.includes(TIME_ZONE_NOTE)) notes.push(TIME_ZONE_NOTE);
  notes.push(
    `currentStage: from the ${family.columns.length} columns "${family.pattern}", the stage whose date is latest in the row` +
      (known || named
        ? '; stages: one per column, where its date is filled'
        : '; stages (the history) left out until the pipeline is known: see docs/profiles.md, "Stages from a family of date columns"'),
  );
  // a family column matched as the won flag by its name (`date_entered_closedwon`) is the family's
  if (fields.isWon && !family.columns.some((f) => f.column === fields.isWon!.column)) return;
  const won = family.columns.filter((f) => WON_STAGE.test(f.name)).map((f) => f.name);
  if (!won.length) return;
  fields.isWon = { latestOf: family.pattern, map: Object.fromEntries(won.map((w) => [w, true])), otherwise: false };
  notes.push(`isWon: a deal whose latest stage is ${won.map((w) => `"${w}"`).join(' or ')} is won`);
}

/** An expected close date matched by name gives way to the actual one where that is filled (a column list's first non-empty cell). */
function closeDateRule(c: RuleContext): void {
  const expected = c.fields.closeDate?.column;
  if (typeof expected !== 'string' || !/expect|estim|\best\b|previst|esperad/i.test(expected)) return;
  const used = taken(c);
  const names = new Set(ACTUAL_CLOSE_DATE.map(squash));
  const actual = c.header.find((h) => !used.has(h) && names.has(squash(h)));
  if (!actual) return;
  c.fields.closeDate = { ...c.fields.closeDate, column: [actual, expected] };
  c.used.add(actual);
  c.notes.push(`closeDate: "${actual}" where it is filled (a closed deal), else "${expected}"`);
}

/** ISO-4217 codes are upper case; spreadsheets hold `clp` or `Brl`, and CRMs the currency's name (`US Dollar`). */
function currencyRule({ fields, facts, notes }: RuleContext): void {
  const currency = fields['amount.currency']?.column as string | undefined;
  if (!currency) return;
  const values = facts(currency).values;
  const names = values.some((v) => !/^[A-Za-z]{3}$/.test(v)) ? currencyNameMap(values) : undefined;
  if (names) {
    fields['amount.currency'] = { column: currency, map: names };
    const list = Object.entries(names).map(([k, v]) => `"${k}" → ${v}`);
    notes.push(`amount.currency: "${currency}" holds currency names; they are mapped to ISO-4217 codes: ${list.join(', ')}`);
  } else if (values.some((v) => v !== v.toUpperCase())) {
    fields['amount.currency']!.transform = 'upper';
    notes.push(`amount.currency: "${currency}" has lower-case codes in the sample; they are upper-cased (ISO-4217)`);
  }
}

/** An owner column holds few distinct values: one distinct in every row is a customer or a record id, never an owner. */
function ownerOfFewValues(c: RuleContext): void {
  const { fields, header, facts, notes, rows } = c;
  const owner = fields.ownerExternalId?.column as string | undefined;
  if (!owner || rows < 10) return;
  const f = facts(owner);
  if (f.distinct < f.values.length || f.values.length < rows) return;
  delete fields.ownerExternalId;
  if (fields.agentExternalId?.column === owner) delete fields.agentExternalId;
  const used = taken(c);
  const few = (h: string) => !used.has(h) && h !== owner && facts(h).empty === 0 && facts(h).distinct * 4 <= rows;
  const named = new Set(SYNONYMS.deal.ownerExternalId!.map(squash));
  const other = header.find((h) => few(h) && named.has(squash(h))) ?? header.find((h) => few(h) && namedLikeId(h));
  if (other) fields.ownerExternalId = { column: other };
  notes.push(
    `ownerExternalId: "${owner}" is distinct in every sampled row (${f.distinct} of ${rows}): not an owner` +
      (other ? `; "${other}" is (${facts(other).distinct} distinct values)` : ''),
  );
}

export function salesProfileRules(c: RuleContext): void {
  const { fields, header, used, facts, notes, placeholder } = c;
  if (!fields.externalId) {
    const found = uniqueIdColumn(
      header.filter((h) => !taken(c).has(h) && h.trim()),
      facts,
    );
    if (found) {
      fields.externalId = { column: found.column };
      used.add(found.column);
      notes.push(`externalId: "${found.column}" ${found.why} (e.g. "${found.example}"): it is taken as the id; deals must name owners by it`);
    }
  }
  const full = FULL_NAME.map(squash)
    .map((w) => header.find((h) => !used.has(h) && squash(h) === w))
    .find(Boolean);
  if (full && !fields['profile.firstName']) {
    fields['profile.firstName'] = { column: full, transform: 'firstName' };
    if (!fields['profile.lastName']) fields['profile.lastName'] = { column: full, transform: 'lastName' };
    notes.push(`profile: "${full}" is split: the last word is the last name, the rest the first name`);
  }
  const first = fields['profile.firstName']?.column as string | undefined;
  const last = fields['profile.lastName']?.column as string | undefined;
  if (!fields.externalId && full) {
    fields.externalId = { column: full, transform: 'slug' };
    notes.push(`externalId: no id column; the slug of "${full}" (deals must name owners the same way)`);
  } else if (!fields.externalId && first && last && first !== last) {
    fields.externalId = { template: `{${first}|slug}-{${last}|slug}` };
    notes.push(
      `externalId: no id column; the slug of "${first}" and "${last}" ("${slug(`${facts(first).values[0]} ${facts(last).values[0]}`)}"), as deals naming owners by full name derive theirs`,
    );
  } else if (!fields.externalId && fields.email) {
    fields.externalId = { column: fields.email.column };
    notes.push('externalId: no id column; the e-mail address is the id');
  }
  if (!fields.email && fields.externalId && full) {
    fields.email = { template: placeholder('fields.email.template', `e-mail, e.g. {${full}|slug}@yourcompany.com`, 'the export has no e-mail column') };
  }
}

export function accountRules(c: RuleContext, hasType: boolean): void {
  const { fields, facts, notes } = c;
  const type = fields.type?.column as string | undefined;
  if (!hasType) return;
  const values = type ? facts(type).values : [];
  if (type && values.length > 0) return accountTypeColumn(c, type, values);
  fields.type = { const: 'COMPANY' };
  const why = type ? `"${type}" is empty in every sampled row` : 'no column found';
  notes.push(`type: ${why}; every account is sent as COMPANY (CONTACT and CLIENT are the other values seen)`);
}

/**
 * A type column in the API's words stays as it is; in words each of which names one (`Cliente`,
 * `Empresa`) it gets a map; in a relationship's words (`Prospect`, `Competitor`) nothing is guessed:
 * every account is a COMPANY and the column is kept, as a custom field.
 */
function accountTypeColumn(c: RuleContext, type: string, values: readonly string[]): void {
  const seen: readonly string[] = SEEN_VALUES.accountType;
  if (values.every((v) => seen.includes(v))) return;
  const map = accountTypeMap(values);
  if (map) {
    c.fields.type = { column: type, map };
    return;
  }
  c.fields.type = { const: 'COMPANY' };
  c.used.delete(type);
  const words = [...new Set(values)].filter((v) => !seen.includes(v));
  const shown = words.slice(0, 4).map((v) => JSON.stringify(v));
  c.notes.push(
    `type: "${type}" holds words the API does not show (${shown.join(', ')}${words.length > 4 ? ', …' : ''}): every account is sent as COMPANY, ` +
      `and "${type}" as a custom field; give "type" a map to COMPANY, CONTACT or CLIENT to send them as the type`,
  );
}

export function activityRules(c: RuleContext): void {
  const { fields, facts, notes, file } = c;
  const type = fields.type?.column as string | undefined;
  const typeMap = type ? activityTypeMap(type, facts(type).values) : undefined;
  if (type && typeMap) {
    fields.type = { column: type, map: typeMap.map };
    notes.push(...typeMap.notes);
  } else if (!type || !facts(type).values.length) {
    delete fields.type;
    const word = file ? kindFromFileName(file)?.word : undefined;
    const named = word ? activityTypeOf(word) : undefined;
    if (named) {
      fields.type = { const: named };
      notes.push(`type: ${named}, from the file name "${basename(file!)}"`);
    }
  }
  const direction = fields['source.name']?.column as string | undefined;
  const dirMap = direction ? directionMap(facts(direction).values) : undefined;
  if (direction && dirMap) fields['source.name'] = { column: direction, map: dirMap };
}

/** No id column matched by name (or the one matched is not a key): a unique id column, the record's unique name, or rowHash. */
export function externalIdRule(c: RuleContext, resource: Resource): void {
  const { fields, header, facts, notes } = c;
  const matched = fields.externalId?.column as string | undefined;
  if (matched && (isUniqueKey(facts(matched)) || ownIdRepeats(matched, resource, facts(matched)))) return;
  if (matched) {
    delete fields.externalId;
    const f = facts(matched);
    notes.push(`externalId: "${matched}" is not an id: ${f.empty ? `empty in ${f.empty} of ${c.rows} sampled rows` : 'its values repeat'}`);
  }
  if (fields.externalId) return;
  const found = uniqueIdColumn(
    header.filter((h) => !taken(c).has(h) && h.trim()),
    facts,
  );
  if (found) {
    fields.externalId = { column: found.column };
    notes.push(`externalId: "${found.column}" ${found.why} (e.g. "${found.example}")`);
    return;
  }
  const name = resource === 'account' ? (fields.name?.column as string | undefined) : undefined;
  if (name && isUniqueKey(facts(name))) {
    fields.externalId = { column: name, transform: 'slug' };
    notes.push(`externalId: no id column; the slug of the unique "${name}" ("${slug(facts(name).values[0]!)}"): records that refer to it must use the same`);
    return;
  }
  if (resource === 'sales-profile' || !c.rows) return;
  fields.externalId = { rowHash: true };
  notes.push(
    "externalId: no column is filled and unique in every sampled row: the id is made from the row's content (rowHash); identical rows are sent once, and an edited row is a new record",
  );
}
