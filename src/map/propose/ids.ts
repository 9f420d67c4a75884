// What init proposes as a record's externalId, from the sample. A column qualifies only when it is
// filled and unique in every sampled row (a mostly-empty `Parent Activity Id` never does); among
// those, one named like an id (`Id`, `mql_id`, `attributes.referenceId`, `External_id__c`) first,
// then one of unique codes. Without one, the caller falls back to the record's name or to `rowHash`:
// an id made from the row's content.
import { guessDateFormat } from './guess.js';
import type { Resource } from '../../contract/resources.js';
import { idLikeHeader, idWordHeader, isPhoneHeader, squash } from './synonyms.js';
import { KIND_NAMES } from './vocabulary.js';

export interface ColumnFacts {
  /** The non-empty cells, trimmed. */
  values: string[];
  /** Sampled rows where the cell is empty. */
  empty: number;
  distinct: number;
}

export function columnFacts(rows: readonly Record<string, string>[], column: string): ColumnFacts {
  const values = rows.map((r) => (r[column] ?? '').trim()).filter((v) => v !== '');
  return { values, empty: rows.length - values.length, distinct: new Set(values).size };
}

/** Filled in every sampled row and never repeated: what an id must be. */
export const isUniqueKey = (f: ColumnFacts) => f.values.length > 0 && f.empty === 0 && f.distinct === f.values.length;

/** Ids as exports write them: one token of letters, digits and `-_./#`, with a digit (`V-001`, `SKU_42`, `00417`). */
const CODE = /^(?=[^\s]*\d)[\p{L}\d][\p{L}\d\-_./#]*$/u;
export const looksLikeCodes = (values: readonly string[]) => values.length > 0 && values.every((v) => CODE.test(v) && v.length <= 40);

/** Zoho's one upper-case word: `EVENTID`, `TASKID`, `ACCOUNTID` (not `PAID`, `VOID`). */
const UPPER_ID = /^[A-Z][A-Z0-9_]{2,}ID$/;

/** `Id`, `id`, `mql_id`, `ExternalId`, `attributes.referenceId`, `External_id__c`, `ID Vendedor`, `EVENTID`, vTiger's `potentialid`. */
export function namedLikeId(header: string): boolean {
  const s = squash(header);
  return (
    s === 'id' ||
    idLikeHeader(header) ||
    /(^|[._\s])(id|referenceid|externalid)(__c)?$/i.test(header) ||
    /[a-z]Id$/.test(header) ||
    UPPER_ID.test(header) ||
    OBJECT_ID.test(s)
  );
}

/** The best id column among `candidates` (header order), with why; undefined when none is a unique key. */
export function uniqueIdColumn(
  candidates: readonly string[],
  facts: (column: string) => ColumnFacts,
): { column: string; why: string; example: string } | undefined {
  return uniqueIdColumns(candidates, facts)[0];
}

/**
 * Every column among `candidates` that can be the id, best first: the record's own id (`Id`), then
 * columns named like an id (in header order), then columns of unique codes. The ones after the first
 * are what init falls back to when the first repeats further down the file (propose/revise.ts).
 */
export function uniqueIdColumns(candidates: readonly string[], facts: (column: string) => ColumnFacts): { column: string; why: string; example: string }[] {
  // a phone number is unique too, and never an id
  const keys = candidates.filter((c) => {
    const f = facts(c);
    if (isPhoneHeader(c) || /phone|fax|tel[eé]fono|telefone/i.test(c)) return false;
    return isUniqueKey(f) && !guessDateFormat(f.values);
  });
  const own = keys.filter((c) => squash(c) === 'id' || /^(external)?id$/i.test(c.split('.').pop() ?? ''));
  const named = keys.filter((c) => namedLikeId(c) && !own.includes(c));
  // plain numbers (`2822`, `1100.04`) that happen to differ in a sample are amounts, not codes
  const codes = keys.filter(
    (c) => !own.includes(c) && !named.includes(c) && looksLikeCodes(facts(c).values) && !facts(c).values.every((v) => /^[1-9]\d*([.,]\d+)?$/.test(v)),
  );
  const example = (column: string) => facts(column).values[0]!;
  return [
    ...[...own, ...named].map((column) => ({ column, why: 'is named like an id and its values are filled and unique', example: example(column) })),
    ...codes.map((column) => ({ column, why: 'holds unique codes', example: example(column) })),
  ];
}

/**
 * A column that names an id (`ID`, `Record ID`, `ID da organização`, `Organização - ID`, `código`,
 * `Deal ID`, `org_id`, `OwnerId`, `associatedcompanyid`, `Associated Company IDs`): its values are text however numeric
 * they look, so init never proposes it as a number (`00417` and `12` are codes, never summed).
 * `Número de …` is not one: it counts as often as it names.
 */
export function namesAnId(header: string): boolean {
  if (idWordHeader(header) || /(^|[._\s])(ids?|referenceid|externalid)(__c)?$/i.test(header) || /[a-z]Ids?$/.test(header) || UPPER_ID.test(header)) return true;
  // all lower case, HubSpot's way: `associatedcompanyid`, `dealid`, `vid`
  return OBJECT_ID.test(squash(header));
}

// vTiger's and Zoho's record names too: `potentialid`, `activityid`, `eventid`, `taskid`
const OBJECT_ID =
  /^(vid|uuid|guid)$|(company|contact|deal|owner|account|user|person|lead|organi[sz]ation|org|opportunity|potential|pipeline|ticket|activity|event|task|call|meeting|note)ids?$/;

/** The record's own id by its name: `id`, `ExternalId`, or the file's kind and `id` (`deal_id`, `Opportunity ID`, `EVENTID`). */
export function namesOwnId(header: string, resource: Resource): boolean {
  const s = squash(header);
  return s === 'id' || s === 'externalid' || KIND_NAMES[resource].some((w) => s === `${squash(w)}id`);
}

/**
 * The record's own id, filled in every sampled row, that repeats in a few (at most 1 in 20, or one):
 * an export's error in those rows (D1008 twice, with other content), not a column that is no id. Kept,
 * never given up for rowHash (under which every edit of a record makes a new one on the next run);
 * push refuses the repeats as DUPLICATE, and init's check of the file says how many. Returns how many
 * sampled rows repeat, or undefined when it is no such id.
 */
export function ownIdRepeats(header: string, resource: Resource, f: ColumnFacts): number | undefined {
  const repeats = f.values.length - f.distinct;
  if (!namesOwnId(header, resource) || f.empty > 0 || repeats === 0) return undefined;
  return repeats <= Math.max(1, Math.floor(f.values.length / 20)) ? repeats : undefined;
}
