// Where a planned item came from: the row behind it, carried through sending to its outcome.
import type { ItemHash } from '../util/item-hash.js';

export interface RowMeta {
  file: string;
  line: number;
  externalId?: string;
  row?: Record<string, string>;
  /** The row's fingerprint (incremental runs), recorded with the item when the server accepts it. */
  fp?: ItemHash;
}
