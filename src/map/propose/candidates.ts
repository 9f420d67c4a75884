// What init would map a field from if its first choice fails on the data (propose/revise.ts): the
// other columns whose names matched the field, best first, and for `isWon` the export's own words
// for won (a status or stage column whose values say won, a yes/no column) and a won date (filled →
// won). Pure: the header and the sample in, ranked specs per field out.
import { isCurrencyCode } from '../../contract/fields.js';
import type { Resource } from '../../contract/resources.js';
import { guessDateFormat } from './guess.js';
import { type ColumnFacts, namesOwnId, uniqueIdColumns } from './ids.js';
import type { Spec } from './rules.js';
import { isPhoneHeader, SYNONYMS, squash, WON_STAGE } from './synonyms.js';
import { booleanMap } from './value-maps.js';

/** Columns named like a won date in EN, ES and PT: `Won time`, `Fecha de ganado`, `Ganho em`. */
const WON_DATE = /^(won(date|time|on|at)|(fecha|data)(de)?(ganad[oa]|ganh[oa])|ganh[oa]em|ganad[oa]el|closedwondate)$/;

/** Every column whose name matches one of the field's names, exact matches first (match-columns.ts' rule). */
function namedFor(resource: Resource, field: string, header: readonly string[]): string[] {
  const names = (SYNONYMS[resource][field] ?? []).map(squash);
  const idField = /externalId$/i.test(field);
  const exact = header.filter((h) => names.includes(squash(h)));
  const within = header.filter((h) => names.some((n) => n.length >= 5 && squash(h).includes(n)) && !(idField && isPhoneHeader(h)));
  return [...new Set([...exact, ...within])];
}

/**
 * Whether a column's sampled values can be what the field holds, where its name alone misleads: a
 * currency field matched by name takes "Amount in company currency", which holds amounts. A column
 * that cannot be is no candidate, so the field ends as a placeholder rather than on the next misfit.
 */
function couldHold(field: string, values: readonly string[]): boolean {
  if (/currency$/i.test(field)) return values.some((v) => isCurrencyCode(v.trim().toUpperCase()) || /^\D{1,3}$/.test(v.trim()));
  return true;
}

/** The ways `isWon` can be read from the export, best first. */
function wonCandidates(header: readonly string[], facts: (c: string) => ColumnFacts): Spec[] {
  const out: Spec[] = [];
  for (const column of header) {
    const values = facts(column).values;
    const won = [...new Set(values.filter((v) => WON_STAGE.test(v)))];
    if (won.length && !guessDateFormat(values)) out.push({ column, map: Object.fromEntries(won.map((w) => [w, true])), otherwise: false });
  }
  for (const column of header) {
    const map = booleanMap(facts(column).values);
    if (map && namedFor('deal', 'isWon', [column]).length) out.push({ column, map, default: false });
  }
  for (const column of header) if (WON_DATE.test(squash(column))) out.push({ column, map: {}, otherwise: true, default: false });
  return out;
}

/**
 * What a record's id falls back to when its column repeats further down the file: the other columns
 * unique in the sample (ids.ts' order), then the row's content (a sales profile's id is what the
 * deals name their owners by, so it gets no rowHash).
 */
function idCandidates(resource: Resource, header: readonly string[], taken: ReadonlySet<string>, facts: (c: string) => ColumnFacts): Spec[] {
  const columns: Spec[] = uniqueIdColumns(
    header.filter((h) => !taken.has(h) && h.trim()),
    facts,
  ).map((c) => ({ column: c.column }));
  return resource === 'sales-profile' ? columns : [...columns, { rowHash: true }];
}

/**
 * Per mapped field, what else it could be mapped from, best first; never the spec it has, nor a
 * column another field reads.
 */
export function fieldCandidates(
  resource: Resource,
  header: readonly string[],
  fields: Readonly<Record<string, Spec>>,
  facts: (c: string) => ColumnFacts,
): Record<string, Spec[]> {
  const taken = new Set(Object.values(fields).flatMap((s) => (typeof s.column === 'string' ? [s.column] : [])));
  const out: Record<string, Spec[]> = {};
  for (const [field, spec] of Object.entries(fields)) {
    // a const (a rule's choice or a placeholder) was decided without a column: nothing to fall back to
    if (spec.column === undefined && field !== 'isWon') continue;
    // the record's own id has no stand-in: its repeats are the export's error, refused as DUPLICATE, not a reason for rowHash
    const list: Spec[] =
      field === 'externalId'
        ? typeof spec.column === 'string' && namesOwnId(spec.column, resource)
          ? []
          : idCandidates(resource, header, taken, facts)
        : namedFor(resource, field, header)
            .filter((c) => !taken.has(c) && facts(c).values.length > 0 && couldHold(field, facts(c).values))
            .map((column) => {
              const date = guessDateFormat(facts(column).values);
              return date && !('ambiguous' in date) && date.format !== 'YYYY-MM-DD' ? { column, format: date.format } : { column };
            });
    if (resource === 'deal' && field === 'isWon') list.push(...wonCandidates(header, facts));
    const same = JSON.stringify(spec);
    const seen = new Set<string>([same]);
    out[field] = list.filter((s) => {
      const key = JSON.stringify(s);
      if (seen.has(key) || (s.column === spec.column && s.map === undefined && spec.map === undefined)) return false;
      seen.add(key);
      return true;
    });
  }
  return out;
}
