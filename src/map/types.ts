// What mapping does with one source record: an API item, a deliberate skip, or problems.
import type { Resource } from '../contract/resources.js';
import type { SourceRecord } from '../read/types.js';
import type { Diagnostic } from '../validate/diagnostic.js';

export type MapResult =
  | { kind: 'item'; item: Record<string, unknown>; warnings: Diagnostic[] }
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid'; problems: Diagnostic[] };

export interface Mapper {
  resource: Resource;
  map(record: SourceRecord): MapResult;
}
