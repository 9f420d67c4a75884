// A file of people is sellers only with evidence: its name (users, vendedores), a seller's header,
// or being what the deals' owner column points at. This is the last: the deals' owner values found
// among one of the people file's own columns (its id, e-mail or name; never its own owner column,
// which names the same sellers). Pure: headers and sample rows in.
import { matchColumns } from './match-columns.js';
import { squash } from './synonyms.js';
import { fold } from '../transforms/text.js';

interface Sample {
  file: string;
  header: readonly string[];
  rows: readonly Record<string, string>[];
}

const PERSON_REFS = new Set(['ownerExternalId', 'agentExternalId']);
/** A column naming a record's owner (`Proprietário`, `Contact owner`, `hubspot_owner_id`): it points at sellers, it is none. */
const OWNER_WORD = /owner|propriet|propiet|responsa|vendedor|assigned|atribu|asignad/;

const norm = (v: string | undefined) => fold((v ?? '').trim()).replace(/\s+/g, ' ');
const distinct = (rows: readonly Record<string, string>[], read: (r: Record<string, string>) => string) => [...new Set(rows.map(read).filter((v) => v !== ''))];

/**
 * The deals file and owner column whose values are (four in five of them at least) in one of
 * `people`'s own columns, with that column; undefined when the deals' owners are not these people.
 */
export function ownersPointAt(
  deals: readonly Sample[],
  people: Sample,
): { file: string; owner: string; column: string; found: number; of: number } | undefined {
  const ownColumns = people.header.filter((h) => !OWNER_WORD.test(squash(h)) && !matchColumns('deal', [h], PERSON_REFS).byField.size);
  const columns = ownColumns.map((h) => ({ column: h, values: new Set(distinct(people.rows, (r) => norm(r[h]))) }));
  const names = matchColumns('sales-profile', people.header, new Set(['profile.firstName', 'profile.lastName'])).byField;
  const first = names.get('profile.firstName');
  const last = names.get('profile.lastName');
  if (first && last && first !== last) {
    columns.push({ column: `${first} ${last}`, values: new Set(distinct(people.rows, (r) => norm(`${r[first] ?? ''} ${r[last] ?? ''}`))) });
  }
  for (const d of deals) {
    for (const owner of matchColumns('deal', d.header, PERSON_REFS).byField.values()) {
      const values = distinct(d.rows, (r) => norm(r[owner]));
      if (!values.length) continue;
      for (const { column, values: own } of columns) {
        const found = values.filter((v) => own.has(v)).length;
        // numbers meet numbers by chance (owners 1-5 among contacts 1-500): then the owners must be a third of the people too
        const byChance = values.every((v) => /^\d+$/.test(v)) && found * 3 < own.size;
        if (found * 5 >= values.length * 4 && !byChance) return { file: d.file, owner, column, found, of: values.length };
      }
    }
  }
  return undefined;
}
