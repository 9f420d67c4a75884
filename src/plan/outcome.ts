// Every input row ends as exactly one of these outcomes.
import type { Resource } from '../contract/resources.js';
import type { RowMeta } from './row-meta.js';

export const OUTCOMES = ['accepted', 'rejected', 'invalid', 'skipped'] as const;
export type OutcomeKind = (typeof OUTCOMES)[number];

/**
 * Reasons a row is skipped on purpose: by the profile's condition, unchanged in incremental mode, or
 * a repeat of an earlier row's very item (sent once, with that row).
 */
const DELIBERATE = new Set(['SKIPPED', 'UNCHANGED', 'DUPLICATE_IDENTICAL']);

/** A row left out on purpose is not a failure: it counts neither against the exit code nor the guard. */
export function isDeliberateSkip(o: Pick<RowOutcome, 'outcome' | 'message'>): boolean {
  return o.outcome === 'skipped' && DELIBERATE.has(o.message);
}

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

/** The outcome of a row that reached a batch, placed at its file and line. */
export function batchedOutcome(
  outcome: OutcomeKind,
  resource: Resource,
  meta: RowMeta,
  batchId: string,
  message: string,
  detail: string,
  row: RowMeta['row'],
): RowOutcome {
  return { outcome, resource, file: meta.file, line: meta.line, externalId: meta.externalId, message, detail, row, batchId };
}
