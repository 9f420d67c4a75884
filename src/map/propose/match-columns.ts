// Header columns matched to API fields by name: first exact matches (ignoring case, accents and
// punctuation) in synonym order, then columns that contain a long enough synonym
// (`Fecha de cierre (estimada)`) — but a phone column is no id field's. Each column serves one field.
import type { Resource } from '../../contract/resources.js';
import { isPhoneHeader, SYNONYMS, squash } from './synonyms.js';

export function matchColumns(resource: Resource, header: readonly string[], fields: ReadonlySet<string>) {
  const squashed = header.map((h) => ({ h, s: squash(h) }));
  const byField = new Map<string, string>();
  const used = new Set<string>();
  const entries = Object.entries(SYNONYMS[resource]).filter(([f]) => fields.has(f));
  const take = (field: string, h: string) => {
    byField.set(field, h);
    used.add(h);
  };
  for (const [field, names] of entries) {
    for (const name of names.map(squash)) {
      const hit = squashed.find((c) => !used.has(c.h) && c.s === name);
      if (hit) {
        take(field, hit.h);
        break;
      }
    }
  }
  for (const [field, names] of entries) {
    if (byField.has(field)) continue;
    // a phone column contains `numero` but names no record: it is never an id
    const idField = /externalId$/i.test(field);
    for (const name of names.map(squash).filter((n) => n.length >= 5)) {
      const hit = squashed.find((c) => !used.has(c.h) && c.s.includes(name) && !(idField && isPhoneHeader(c.h)));
      if (hit) {
        take(field, hit.h);
        break;
      }
    }
  }
  return { byField, used };
}
