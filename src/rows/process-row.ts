// One row's way from the reader to the point where the run's knowledge decides it (plan/admit.ts):
// map, validate, and in incremental runs tell an unchanged row by its fingerprint. Written once,
// run on whichever thread reads the row: the main thread hands the result to admit, the read
// worker writes it into a chunk (row-chunk.ts) that the main thread hands to admit in turn.
import type { Mapper } from '../map/types.js';
import type { SourceRecord } from '../read/types.js';
import type { ItemHash } from '../util/item-hash.js';
import { rowFingerprint } from '../state/row-fingerprint.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { ItemValidator } from '../validate/validate-item.js';
import { problemText } from './problem-text.js';

/** Where a row's result goes: exactly one of skip, invalid, same and valid per row, after its warnings. */
export interface RowSink {
  warn(d: Diagnostic): void;
  /** The mapping skips the row on purpose (a profile's skip condition). */
  skip(reason: string): void;
  /** The row cannot become a valid item; `column` and `field` are the first problem's, `detail` all of them. */
  invalid(externalId: string | undefined, field: string | undefined, column: string | undefined, detail: string): void;
  /**
   * The state holds this row's item as the server last accepted it (found by `fp`): neither
   * validated nor serialised. Its REF_PATHS ids are `ids`, or read from `item`.
   */
  same(fp: ItemHash, ids: readonly unknown[] | undefined, item: Record<string, unknown> | undefined): void;
  /**
   * A valid item: its JSON `json` with its REF_PATHS ids in `ids` when the mapper wrote it from the
   * cells, else the validated `item` itself. `fp` only for a row without warnings.
   */
  valid(fp: ItemHash | undefined, ids: readonly unknown[] | undefined, item: Record<string, unknown> | undefined, json: string | undefined): void;
}

/** What the state knows of row fingerprints, asked in two steps: a quick test, then the row's id. */
export interface KnownRows {
  /** Whether the state may know this fingerprint (false: certainly not). */
  mayKnow(fp: ItemHash): boolean;
  /** Whether the item the state holds for this id came from a row with this fingerprint. */
  knows(externalId: string, fp: ItemHash): boolean;
}

/** What one job's rows are processed with (one per job and thread, reused row to row). */
export interface RowContext {
  mapper: Mapper;
  validate: ItemValidator;
  header: readonly string[] | undefined;
  /** The job's fingerprint context (row-fingerprint.ts), or undefined when its rows get none. */
  fingerprint: string | undefined;
  known: KnownRows;
  /** Scratch for the ids of a row whose JSON the mapper writes (REF_PATHS long). */
  ids: unknown[];
}

/** Maps and validates one record, and tells `sink` what became of it. */
export function processRow(record: SourceRecord, ctx: RowContext, sink: RowSink, fingerprinted = ctx.fingerprint !== undefined): void {
  const { mapper } = ctx;
  const fp = fingerprinted ? rowFingerprint(ctx.fingerprint!, record, ctx.header) : undefined;
  // incremental: a row the state may know needs only its ids, read without building the item where
  // the mapper can (trusted once the state knows the pair)
  const mayKnow = fp !== undefined && ctx.known.mayKnow(fp);
  if (mayKnow && mapper.refs) {
    const ids = mapper.refs(record);
    const id = ids[0];
    if (typeof id === 'string' && ctx.known.knows(id, fp)) return sink.same(fp, ids, undefined);
  }
  // a row certainly valid and clean: its JSON straight from its cells, no item built
  const written = mayKnow ? undefined : mapper.json?.(record, ctx.ids);
  if (written !== undefined) return sink.valid(fp, ctx.ids, undefined, written);
  const mapped = mapper.map(record);
  if (mapped.kind === 'skip') return sink.skip(mapped.reason);
  if (mapped.kind === 'invalid') {
    const first = mapped.problems[0];
    // the first problem's column and field travel apart; further ones name their own
    const detail = mapped.problems.map((p, i) => problemText(i === 0 ? { ...p, column: undefined } : p)).join('; ');
    return sink.invalid(mapped.externalId, first?.field, first?.column, detail);
  }
  for (const w of mapped.warnings) sink.warn(w);
  const externalId = typeof mapped.item.externalId === 'string' ? mapped.item.externalId : undefined;
  // a row with warnings has no fingerprint: it is checked in full every run, and so warned about
  const clean = mapped.warnings.length === 0;
  if (mayKnow && clean && externalId !== undefined && ctx.known.knows(externalId, fp)) return sink.same(fp, undefined, mapped.item);
  const checked = ctx.validate(mapped.item);
  if (!checked.ok) {
    const field = checked.problems[0]?.field;
    const column = field === undefined ? undefined : mapper.columnOf?.(field);
    return sink.invalid(externalId, field, column, checked.problems.map((p) => problemText(p)).join('; '));
  }
  for (const w of checked.warnings) sink.warn({ severity: 'warning', file: record.file, line: record.line, field: w.field, reason: w.reason });
  sink.valid(clean && checked.warnings.length === 0 ? fp : undefined, undefined, checked.item, undefined);
}
