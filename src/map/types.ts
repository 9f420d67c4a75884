// What mapping does with one source record: an API item, a deliberate skip, or problems.
import type { Resource } from '../contract/resources.js';
import type { SourceRecord } from '../read/types.js';
import type { Diagnostic } from '../util/diagnostic.js';

export type MapResult =
  | { kind: 'item'; item: Record<string, unknown>; warnings: Diagnostic[] }
  | { kind: 'skip'; reason: string }
  /** `externalId`: the row's id when it could be read although other cells could not, for the report. */
  | { kind: 'invalid'; problems: Diagnostic[]; externalId?: string };

export interface Mapper {
  resource: Resource;
  map(record: SourceRecord): MapResult;
  /** Every row maps to the same item (a profile of constants only): one row of the file is enough. */
  constant?: boolean;
  /** What the whole file is told once about its mapping (a PATCH run leaving POST-only columns out): a warning each. */
  notes?: readonly string[];
  /**
   * The ids a run checks across rows (REF_PATHS), read straight from the record without building the
   * item. Only asked of a record known to map to a valid item without warnings (an incremental
   * rerun's unchanged row): for it they are what `map` would give. Absent where not worth it.
   */
  refs?(record: SourceRecord): unknown[];
  /**
   * The JSON of the item this record maps to, written without building the item, and its REF_PATHS
   * ids into `refs` (an array of their length) — only when the item is certainly valid (the run's
   * method's contract) and draws no warning. Otherwise undefined: then `map` and validate as usual,
   * which say what is wrong. Absent where not worth it.
   */
  json?(record: SourceRecord, refs: unknown[]): string | undefined;
  /**
   * The column an item's field came from, as diagnostics name it (`amount.value (F)`), for a problem
   * the contract finds after mapping. Only where it is certain: a canonical workbook's columns are
   * its fields.
   */
  columnOf?(field: string): string | undefined;
}

/** externalId, owner, agent, associated account and deal: what the main thread checks across rows. */
export const REF_PATHS = ['externalId', 'ownerExternalId', 'agentExternalId', 'associated.accountExternalId', 'associated.dealExternalId'] as const;

/** The REF_PATHS of an item. */
export function refsOf(item: Record<string, unknown>): unknown[] {
  const associated = item.associated as { accountExternalId?: unknown; dealExternalId?: unknown } | undefined;
  return [item.externalId, item.ownerExternalId, item.agentExternalId, associated?.accountExternalId, associated?.dealExternalId];
}
