// The main thread's end of a row: what processRow (or a chunk of the read worker) found becomes an
// outcome recorded, or a verdict of admit (plan/admit.ts) and then an outcome or an item in a
// batch. One per resource of a run; rows pass through it one at a time (`at`, then one result).
import type { Resource } from '../contract/resources.js';
import { admit, jsonOf, type Candidate, type RunKnowledge } from '../plan/admit.js';
import type { Batcher, PlannedBatch } from '../plan/batcher.js';
import type { RowOutcome } from '../plan/outcome.js';
import type { ItemHash, ItemJson } from '../util/item-hash.js';
import type { CrossChecks, FirstRow } from '../validate/cross-checks.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { type ChunkLease, ChunkRowMeta, EncodedItem, LazyRow, MappedItem, rowOf, type RowRef } from './chunk-items.js';
import { ownString } from './own-string.js';
import type { RowSink } from './process-row.js';
import type { RowMeta, RunHooks, RunSettings } from './types.js';

type RefsItem = Record<string, unknown> & { associated: Record<string, unknown> };

export interface AdmissionParts {
  resource: Resource;
  settings: RunSettings;
  hooks: RunHooks;
  checks: CrossChecks;
  batcher: Batcher<RowMeta>;
  /** Sales profiles invalid or rejected so far in this run (filled by `record`). */
  failedProfiles: ReadonlySet<string>;
  record(outcome: RowOutcome): void;
}

export class Admission implements RowSink, RunKnowledge<RowOutcome> {
  readonly holdsDependents: boolean;
  readonly ownersFromRunOnly: boolean;
  readonly failedProfiles: ReadonlySet<string>;
  readonly maxItemBytes: number;
  private readonly resource: Resource;
  private readonly candidate: Candidate<RowOutcome> = {
    externalId: undefined,
    ownerExternalId: undefined,
    agentExternalId: undefined,
    encoded: undefined,
    written: undefined,
    item: undefined,
    same: false,
    json: undefined,
    bytes: 0,
    detail: '',
    absent: false,
    prior: undefined,
  };
  /** The item of a row's REF_PATHS ids, for the references check (reused row to row). */
  private readonly refs: RefsItem = { associated: {} };
  /** The current row's JSON for `hooks.resent`, made once for all rows. */
  private readonly jsonNow = (): ItemJson | undefined => jsonOf(this.candidate);
  file = '';
  line = 0;
  private row: RowRef;
  private lease: ChunkLease | undefined;
  /** The batch the last row completed, for the caller to send. */
  private done: PlannedBatch<RowMeta> | undefined;

  constructor(private readonly parts: AdmissionParts) {
    this.resource = parts.resource;
    // deals and activities name sales profiles (their owner, a deal's agent) that must exist
    this.holdsDependents = parts.settings.holdDependents && (parts.resource === 'deal' || parts.resource === 'activity');
    // the embedded sandbox starts empty: a deal or activity whose owner this run does not carry would be refused
    this.ownersFromRunOnly = parts.settings.sandbox === true && parts.settings.mode !== 'validate';
    this.failedProfiles = parts.failedProfiles;
    this.maxItemBytes = parts.batcher.maxItemBytes;
  }

  /** The next row: where it was read, its cells (decoded only if an outcome needs them) and its chunk. */
  at(file: string, line: number, row: RowRef, lease?: ChunkLease): void {
    this.file = file;
    this.line = line;
    this.row = row;
    this.lease = lease;
  }

  /** The batch the current row completed, if any (taken once). */
  take(): PlannedBatch<RowMeta> | undefined {
    const done = this.done;
    this.done = undefined;
    return done;
  }

  // RowSink: what the row became before admit

  warn(d: Diagnostic): void {
    this.parts.hooks.warn(d, this.resource);
  }

  skip(reason: string): void {
    this.parts.record({
      outcome: 'skipped',
      resource: this.resource,
      file: this.file,
      line: this.line,
      message: 'SKIPPED',
      detail: reason,
      row: rowOf(this.row),
    });
  }

  invalid(externalId: string | undefined, field: string | undefined, column: string | undefined, detail: string): void {
    const id = externalId === undefined ? undefined : ownString(externalId);
    this.parts.record({
      outcome: 'invalid',
      resource: this.resource,
      file: this.file,
      line: this.line,
      externalId: id,
      field,
      column,
      message: 'INVALID',
      detail,
      row: rowOf(this.row),
    });
  }

  same(fp: ItemHash, ids: readonly unknown[] | undefined, item: Record<string, unknown> | undefined): void {
    this.admitRow(fp, ids, item, undefined, undefined, true);
  }

  valid(fp: ItemHash | undefined, ids: readonly unknown[] | undefined, item: Record<string, unknown> | undefined, json: string | undefined): void {
    this.admitRow(fp, ids, item, json, undefined, false);
  }

  /** A valid row of the read worker: its JSON as UTF-8 and its REF_PATHS ids. */
  encoded(fp: ItemHash | undefined, ids: readonly unknown[], encoded: Buffer): void {
    this.admitRow(fp, ids, undefined, undefined, encoded, false);
  }

  // RunKnowledge: what admit asks

  claim(externalId: string, mark: ItemHash): FirstRow | undefined {
    return this.parts.checks.claim(this.resource, externalId, this, mark);
  }

  carriesProfile(id: string): boolean {
    return this.parts.checks.carriesProfile(id);
  }

  holds(externalId: string, json: ItemJson): boolean {
    return this.parts.hooks.holds?.(this.resource, externalId, json) ?? false;
  }

  resent(externalId: string): RowOutcome | undefined {
    return this.parts.hooks.resent?.(this.resource, externalId, this.jsonNow);
  }

  unchanged(externalId: string, json: ItemJson): boolean {
    return this.parts.hooks.unchanged?.(this.resource, externalId, json) ?? false;
  }

  private admitRow(
    fp: ItemHash | undefined,
    ids: readonly unknown[] | undefined,
    item: Record<string, unknown> | undefined,
    written: string | undefined,
    encoded: Buffer | undefined,
    same: boolean,
  ): void {
    const c = this.candidate;
    const refs = item ?? refsItem(ids!, this.refs);
    const id = refs.externalId;
    c.externalId = typeof id === 'string' ? ownString(id) : undefined;
    c.ownerExternalId = refs.ownerExternalId;
    c.agentExternalId = refs.agentExternalId;
    c.item = item;
    c.written = written;
    c.encoded = encoded;
    c.same = same;
    c.json = undefined;
    c.prior = undefined;
    const verdict = admit(c, this);
    // a repeated id's references were checked on its first row
    if (verdict !== 'duplicate' && verdict !== 'identical') for (const w of this.parts.checks.references(this.resource, refs, this)) this.warn(w);
    this.settle(verdict, fp);
  }

  /** An outcome of the row at hand, with its cells for the errors CSV. */
  private here(outcome: RowOutcome['outcome'], message: string, detail: string): RowOutcome {
    return { outcome, resource: this.resource, file: this.file, line: this.line, externalId: this.candidate.externalId, message, detail, row: rowOf(this.row) };
  }

  /** The verdict as an outcome recorded, or the item in a batch. */
  private settle(verdict: ReturnType<typeof admit>, fp: ItemHash | undefined): void {
    const { resource, file, line, candidate: c } = this;
    const externalId = c.externalId;
    const record = this.parts.record;
    switch (verdict) {
      case 'duplicate':
        return record({
          ...this.here('invalid', 'DUPLICATE', `duplicate externalId "${externalId}": first seen at ${c.detail}, which wins; this row is not sent`),
          field: 'externalId',
        });
      case 'identical':
        // deliberate, like an unchanged row: no fix to make, so no cells kept for the errors CSV
        return record({ outcome: 'skipped', resource, file, line, externalId, message: 'DUPLICATE_IDENTICAL', detail: `identical to ${c.detail}` });
      case 'resent':
        return record({ ...c.prior!, file, line, row: c.prior!.outcome === 'accepted' ? undefined : rowOf(this.row) });
      case 'held-back':
        return record(
          this.here(
            'skipped',
            'HELD_BACK',
            // short: the cause is the group's label; why and what to do follow the report once
            c.absent ? `no sales profile for ${c.detail} in this run` : `sales profile ${c.detail} not accepted in this run`,
          ),
        );
      case 'unchanged':
        // a later row with this id and the state's item repeats this one
        if (externalId !== undefined) this.parts.checks.heldAsIs(resource);
        if (!c.same && fp !== undefined) this.parts.hooks.learn?.(resource, externalId!, fp);
        // most rows of a rerun, and no output shows their cells (never in the errors CSV): no row, so
        // the outcome (kept as a report example) holds no chunk of the read worker
        return record({
          outcome: 'skipped',
          resource,
          file,
          line,
          externalId,
          message: 'UNCHANGED',
          detail: 'unchanged since the server last accepted it (incremental mode)',
        });
      case 'too-large':
        return record(
          this.here('invalid', 'TOO_LARGE', `the item is ${c.bytes} bytes, more than fits one request (--max-body-bytes ${this.parts.settings.maxBodyBytes})`),
        );
      case 'batch':
        this.done = this.batch(fp);
    }
  }

  private batch(fp: ItemHash | undefined): PlannedBatch<RowMeta> | undefined {
    const { file, line, row, lease, candidate: c } = this;
    const batcher = this.parts.batcher;
    // an item of a worker chunk holds it until its batch has all its outcomes (its cells may be needed)
    if (c.encoded !== undefined) return batcher.add(leased(new EncodedItem(c.encoded as Buffer, new ChunkRowMeta(file, line, c.externalId, row, fp), lease)));
    if (row instanceof LazyRow) return batcher.add(leased(new MappedItem(c.json!, c.bytes, new ChunkRowMeta(file, line, c.externalId, row, fp), lease)));
    return batcher.add({ json: c.json!, bytes: c.bytes, meta: { file, line, externalId: c.externalId, row, fp } });
  }
}

function leased<T extends EncodedItem | MappedItem>(item: T): T {
  item.lease?.hold(item);
  return item;
}

/** An item of only the ids checked across rows (REF_PATHS), for the references and held-back checks; `into` is reused. */
function refsItem(ids: readonly unknown[], into: RefsItem): RefsItem {
  into.externalId = ids[0];
  into.ownerExternalId = ids[1];
  into.agentExternalId = ids[2];
  into.associated.accountExternalId = ids[3];
  into.associated.dealExternalId = ids[4];
  return into;
}
