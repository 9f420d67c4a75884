// Record kinds every mapper treats alike: unreadable rows end as invalid with the reader's reason,
// JSON items without a profile pass through as they are, and JSON items read through a profile are
// seen as rows of dotted keys.
import type { ItemRecord, UnreadableRecord } from '../read/types.js';
import type { MapResult } from './types.js';

export function unreadable(record: UnreadableRecord): MapResult {
  return { kind: 'invalid', problems: [{ severity: 'error', file: record.file, line: record.line, reason: record.reason }] };
}

/** A JSON item without a profile: passed through as it is, when it is an object. */
export function itemAsIs(record: ItemRecord): MapResult {
  const item = record.item;
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) return { kind: 'item', item: item as Record<string, unknown>, warnings: [] };
  return { kind: 'invalid', problems: [{ severity: 'error', file: record.file, line: record.line, reason: 'expected a JSON object (an item)' }] };
}

/** `{ "amount": { "value": 5 } }` → `{ "amount.value": "5" }`, so a profile can name JSON keys as columns. */
type Row = Record<string, string | undefined>;

export function flattenItem(item: unknown): Row {
  const row: Row = Object.create(null) as Row;
  const walk = (value: unknown, prefix: string) => {
    if (value === null || value === undefined) {
      if (prefix) row[prefix] = '';
    } else if (Array.isArray(value))
      value.forEach((v, i) => {
        walk(v, `${prefix}[${i}]`);
      });
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k);
    else row[prefix] = String(value);
  };
  walk(item, '');
  return row;
}
