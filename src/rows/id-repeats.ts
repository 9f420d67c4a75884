// init's check of a record's id over the whole file (check-profile.ts): rows whose externalId an
// earlier row already had with other content. push sends the first and refuses those as DUPLICATE,
// so an id column unique in init's sample that repeats further down (Zoho's `Who Id Id`, the contact
// an event is with) is not the record's id. Identical repeats are not counted: push sends them once.
// Bounded: past MAX_IDS distinct ids, new ones are no longer remembered.
import { sha1Prefix } from '../util/item-hash.js';

const MAX_IDS = 500_000;

export interface IdRepeats {
  /** Rows checked whose id an earlier row had with other content. */
  rows: number;
  /** The first such row's line and id. */
  firstLine?: number;
  example?: string;
}

export function idRepeatTracker() {
  // the id → the low half of its first item's hash: a number, no object per id
  const seen = new Map<string, number>();
  const repeats: IdRepeats = { rows: 0 };
  return {
    repeats,
    see(item: Record<string, unknown>, line: number): void {
      const id = item.externalId;
      if (typeof id !== 'string') return;
      const hash = sha1Prefix(JSON.stringify(item)).lo;
      const first = seen.get(id);
      if (first === undefined) {
        if (seen.size < MAX_IDS) seen.set(id, hash);
      } else if (first !== hash) {
        repeats.rows += 1;
        repeats.firstLine ??= line;
        repeats.example ??= id;
      }
    },
  };
}
