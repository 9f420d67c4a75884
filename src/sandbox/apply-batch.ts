// The heart of the sandbox: one batch's items checked against the contract and applied to the store
// in order, answered in the spec's response shape. Rules the spec leaves open, decided here (README,
// "The sandbox"):
// - POST creates or replaces the record with that externalId; PATCH merges the given top-level
//   fields into an existing record, and an unknown externalId is a NOT_FOUND item error.
// - A deal's ownerExternalId and agentExternalId must exist as sales profiles (the spec's one rule
//   of order); a missing one is a VALIDATION_ERROR naming the field. An activity's ownerExternalId
//   gets the same check (the spec says nothing: a sandbox that accepted it would let a push pass
//   that the real API may refuse), unless `allowUnknownActivityOwners`; its detail names that
//   option. Nothing else is cross-checked.
// - Two answer styles (`answers`, contract/answer-styles.ts): `named` (the default) labels every
//   detail with its item (`items[3] externalId=D-9: …`) and data.success counts accepted items;
//   `documented` answers as the real API's documentation shows: details without a label and
//   data.success a fixed 100.
//   data.code: `named` always 200 (processed; the items' fate is in data.error), `documented` 201
//   when a record was created, else 200 (as the documentation's example). Status SUCCESS. Codes
//   other than 200 and 201 would read as a failed batch (README, "Reading the API's answers").
import { ANSWER_STYLES, SANDBOX_ANSWER_STYLE, type AnswerStyle } from '../contract/answer-styles.js';
import type { DataError } from '../contract/envelope.js';
import { formatProblem, toFieldProblems } from '../contract/issues.js';
import type { Method, Resource } from '../contract/resources.js';
import { compiledItemSchema } from '../validate/compiled-schema.js';
import type { RecordStore, StoredRecord } from './record-store.js';

interface BatchAnswer {
  data: { code: number; success: number; error: DataError[] };
  status: 'SUCCESS';
}

/** The documentation's example answers `success: 100` for a one-item batch: a value, not a count. */
const DOCUMENTED_SUCCESS = 100;

export interface AppliedBatch {
  answer: BatchAnswer;
  /** Items applied: the log's count, whatever data.success says. */
  accepted: number;
  /** For each entry of data.error, the index of the item it is about (the sandbox's page shows the item). */
  errorItems: number[];
}

/** `externalId=?` when the item has none to show: the index still locates it. */
function idOf(item: unknown): string {
  const id = (item as { externalId?: unknown } | null)?.externalId;
  return typeof id === 'string' && id.trim() !== '' ? id : '?';
}

/** The owner fields each resource must find among the sales profiles; activities' unless allowed. */
function ownerFields(resource: Resource, allowUnknownActivityOwners: boolean): readonly ('ownerExternalId' | 'agentExternalId')[] {
  if (resource === 'deal') return ['ownerExternalId', 'agentExternalId'];
  if (resource === 'activity' && !allowUnknownActivityOwners) return ['ownerExternalId'];
  return [];
}

/** Said after an activity's missing owner: the rule is the sandbox's, and how to turn it off. */
const ACTIVITY_OWNER_NOTE = " (an activity's owner is checked as a deal's is; --allow-unknown-activity-owners accepts it)";

export function applyBatch(
  store: RecordStore,
  resource: Resource,
  method: Method,
  items: readonly unknown[],
  style: AnswerStyle = SANDBOX_ANSWER_STYLE,
  allowUnknownActivityOwners = false,
): AppliedBatch {
  const { namesItems: named, successIsCount } = ANSWER_STYLES[style];
  // compiled: the same schema, with a generated check for the valid items that are nearly every item a
  // load test sends; invalid items still get zod's own issues
  const schema = compiledItemSchema(resource, method);
  const records = store.map(resource);
  const profiles = store.map('sales-profile');
  const owners = ownerFields(resource, allowUnknownActivityOwners);
  const note = resource === 'activity' ? ACTIVITY_OWNER_NOTE : '';
  const error: DataError[] = [];
  const errorItems: number[] = [];
  let success = 0;
  let created = 0;

  for (let i = 0; i < items.length; i++) {
    while (errorItems.length < error.length) errorItems.push(i - 1);
    const item = items[i];
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const label = named ? `items[${i}] externalId=${idOf(item)}: ` : '';
      for (const p of toFieldProblems(parsed.error.issues, 'server')) error.push({ message: 'VALIDATION_ERROR', detail: `${label}${formatProblem(p)}` });
      continue;
    }
    const record = parsed.data as StoredRecord;
    const label = named ? `items[${i}] externalId=${record.externalId}: ` : '';
    const existing = records.get(record.externalId);
    if (method === 'patch' && !existing) {
      error.push({
        message: 'NOT_FOUND',
        detail: `${label}externalId: no ${resource} "${record.externalId}" exists to update (PATCH changes existing records; POST creates them)`,
      });
      continue;
    }
    const before = error.length;
    for (const field of owners) {
      const ref = record[field];
      if (typeof ref === 'string' && !profiles.has(ref)) {
        error.push({ message: 'VALIDATION_ERROR', detail: `${label}${field}: "${ref}" does not exist as a sales profile${note}` });
      }
    }
    if (error.length > before) continue;
    records.set(record.externalId, existing && method === 'patch' ? { ...existing, ...record } : record);
    if (!existing) created++;
    success++;
  }

  while (errorItems.length < error.length) errorItems.push(items.length - 1);
  if (success > 0) store.changed();
  const code = !named && created > 0 ? 201 : 200;
  return { answer: { data: { code, success: successIsCount ? success : DOCUMENTED_SUCCESS, error }, status: 'SUCCESS' }, accepted: success, errorItems };
}
