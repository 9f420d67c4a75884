// Every input row ends as exactly one of these outcomes.
import type { Resource } from '../contract/resources.js';

export const OUTCOMES = ['accepted', 'rejected', 'invalid', 'skipped'] as const;
export type OutcomeKind = (typeof OUTCOMES)[number];

export interface RowOutcome {
  outcome: OutcomeKind;
  resource: Resource;
  file: string;
  line: number;
  externalId?: string;
  /** For invalid rows, the field; for rejected rows, the field when the detail names it. */
  field?: string;
  column?: string;
  /** Server message (VALIDATION_ERROR, ...) or our own kind of reason (INVALID, SKIPPED, ...). */
  message: string;
  detail: string;
  /** The original cells, so the errors CSV can hand the row back. */
  row?: Record<string, string>;
  batchId?: string;
}
