// The heart of the sandbox: one batch's items checked against the contract and applied to the store
// in order, answered in the spec's response shape. Rules the spec leaves open, decided here (README,
// "The sandbox"):
// - POST creates or replaces the record with that externalId; PATCH merges the given top-level
//   fields into an existing record, and an unknown externalId is a NOT_FOUND item error.
// - A deal's ownerExternalId and agentExternalId must exist as sales profiles (the spec's one rule
//   of order); a missing one is a VALIDATION_ERROR naming the field. Nothing else is cross-checked.
// - data.success counts accepted items; data.code is 200 when all were accepted (or the batch was
//   empty), 207 when some were, 422 when none were.
import type { DataError } from '../contract/envelope.js';
import { formatProblem, toFieldProblems } from '../contract/issues.js';
import type { Method, Resource } from '../contract/resources.js';
import { compiledItemSchema } from '../validate/compiled-schema.js';
import type { RecordStore, StoredRecord } from './record-store.js';

export interface BatchAnswer {
  data: { code: number; success: number; error: DataError[] };
  status: 'SUCCESS';
}

/** `externalId=?` when the item has none to show: the index still locates it. */
function idOf(item: unknown): string {
  const id = (item as { externalId?: unknown } | null)?.externalId;
  return typeof id === 'string' && id.trim() !== '' ? id : '?';
}

export function applyBatch(store: RecordStore, resource: Resource, method: Method, items: readonly unknown[]): BatchAnswer {
  // compiled: 0.25 instead of 1.47 µs per valid deal (the same schema; zod's issues on invalid items)
  const schema = compiledItemSchema(resource, method);
  const records = store.map(resource);
  const profiles = store.map('sales-profile');
  const error: DataError[] = [];
  let success = 0;

  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const label = `items[${i}] externalId=${idOf(item)}`;
      for (const p of toFieldProblems(parsed.error.issues, 'server')) error.push({ message: 'VALIDATION_ERROR', detail: `${label}: ${formatProblem(p)}` });
      continue;
    }
    const record = parsed.data as StoredRecord;
    const label = `items[${i}] externalId=${record.externalId}`;
    const existing = records.get(record.externalId);
    if (method === 'patch' && !existing) {
      error.push({ message: 'NOT_FOUND', detail: `${label}: externalId: no ${resource} "${record.externalId}" exists to update (PATCH changes existing records; POST creates them)` });
      continue;
    }
    if (resource === 'deal') {
      const before = error.length;
      for (const field of ['ownerExternalId', 'agentExternalId'] as const) {
        const ref = record[field];
        if (typeof ref === 'string' && !profiles.has(ref)) {
          error.push({ message: 'VALIDATION_ERROR', detail: `${label}: ${field}: "${ref}" does not exist as a sales profile` });
        }
      }
      if (error.length > before) continue;
    }
    records.set(record.externalId, existing && method === 'patch' ? { ...existing, ...record } : record);
    success++;
  }

  if (success > 0) store.changed();
  const code = success === items.length ? 200 : success > 0 ? 207 : 422;
  return { data: { code, success, error }, status: 'SUCCESS' };
}
