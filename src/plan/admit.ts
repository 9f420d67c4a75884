// Whether a valid row goes into a batch: the decision that needs the whole run's knowledge (ids
// already seen, sales profiles that failed, batches resent from an interrupted run, the incremental
// state, the request size limit). Pure: it asks `RunKnowledge` and returns one verdict; recording
// the outcome, warning and batching are the caller's (rows/admission.ts).
import { hashItem, type ItemHash, type ItemJson } from '../util/item-hash.js';
import { STATE_ITEM, type FirstRow } from '../validate/cross-checks.js';

/** What became of a valid row. */
export type Verdict =
  /** Goes into a batch: its JSON is `json` (or `encoded`), `bytes` long. */
  | 'batch'
  /** Its externalId came earlier in the run with another item (`detail`: where, "file:line"). */
  | 'duplicate'
  /** Its item is byte for byte the item of the earlier row with its externalId (`detail`: where): that row stands for it. */
  | 'identical'
  /** A batch resent at the start of the run carried this very item: its outcome is `prior`. */
  | 'resent'
  /**
   * A deal or activity whose owner (or a deal's agent) sales profile (`detail`) was invalid or
   * rejected in this run, or, `absent` (the embedded sandbox, which starts empty), is in none of the
   * run's sales profiles.
   */
  | 'held-back'
  /** The server holds this item as it is (incremental mode). */
  | 'unchanged'
  /** Its JSON (`bytes`) does not fit one request. */
  | 'too-large';

/**
 * A valid row as admit sees it: one object per run's resource, filled in for each row (no
 * allocation per row). Inputs first; admit fills the outputs its verdict names.
 */
export interface Candidate<P = unknown> {
  externalId: string | undefined;
  /** Its owner and agent sales-profile ids (deals and activities are held back on them; an activity has no agent). */
  ownerExternalId: unknown;
  agentExternalId: unknown;
  /** Its JSON as UTF-8 (from the read worker), else `written` (by the mapper), else made from `item`. */
  encoded: Uint8Array | undefined;
  written: string | undefined;
  item: Record<string, unknown> | undefined;
  /** The state holds this row's item (found by its fingerprint): nothing to serialise or send. */
  same: boolean;
  // outputs
  json: string | undefined;
  bytes: number;
  detail: string;
  /** Held back because the run carries no sales profile of that id (`detail`: the ids, quoted). */
  absent: boolean;
  prior: P | undefined;
}

/** What the run knows, asked in this order. Only `claim` changes it (the id is then seen). */
export interface RunKnowledge<P = unknown> {
  /**
   * Claims the id for this row, whose item has this mark (its JSON's hash, or STATE_ITEM for a row
   * the state holds as it is); when the id was seen before, that first row, else undefined.
   */
  claim(externalId: string, mark: ItemHash): FirstRow | undefined;
  /** Whether the state holds this very item for this id (a question only: nothing is counted). */
  holds(externalId: string, json: ItemJson): boolean;
  /** The outcome a batch resent first gave this id's item, when it carried this very item (`row`'s JSON). */
  resent(externalId: string, row: Candidate<P>): P | undefined;
  /** Whether rows wait for their owner and agent (not `--no-hold-dependents`, and this is a deal or an activity). */
  readonly holdsDependents: boolean;
  /** Sales profiles invalid or rejected in this run. */
  readonly failedProfiles: ReadonlySet<string>;
  /** The target holds only the run's own sales profiles (the embedded sandbox starts empty): a deal needs its owner and agent among them, an activity its owner. */
  readonly ownersFromRunOnly: boolean;
  /** Whether a sales profile of this run has this id. */
  carriesProfile(id: string): boolean;
  /** Whether the state holds this item for this id as it is (the JSON as text or UTF-8 bytes). */
  unchanged(externalId: string, json: string | Uint8Array): boolean;
  /** The largest item that fits one request, in bytes. */
  readonly maxItemBytes: number;
}

/** The row's JSON, for a row the state does not know by its fingerprint; undefined for one it does. */
export function jsonOf(row: Candidate): string | Uint8Array | undefined {
  return row.same ? undefined : (row.encoded ?? row.json ?? row.written ?? JSON.stringify(row.item));
}

export function admit<P>(row: Candidate<P>, run: RunKnowledge<P>): Verdict {
  const id = row.externalId;
  // the JSON is made once: a row with an id is told from a repeat by its hash, and a batch carries it
  const json = row.same || row.encoded !== undefined ? undefined : (row.written ?? JSON.stringify(row.item));
  row.json = json;
  if (id !== undefined) {
    const mark = row.same ? STATE_ITEM : hashItem(json ?? row.encoded!);
    const first = run.claim(id, mark);
    if (first !== undefined) {
      row.detail = first.at;
      return repeats(first.mark, mark, json ?? row.encoded, id, run) ? 'identical' : 'duplicate';
    }
    const prior = run.resent(id, row);
    if (prior !== undefined) {
      row.prior = prior;
      return 'resent';
    }
  }
  if (run.holdsDependents) {
    const missing = failed(row.ownerExternalId, run.failedProfiles) ?? failed(row.agentExternalId, run.failedProfiles);
    row.absent = missing === undefined && run.ownersFromRunOnly && absent(row, run);
    if (missing !== undefined) row.detail = missing;
    if (missing !== undefined || row.absent) return 'held-back';
  }
  if (row.same) return 'unchanged';
  if (id !== undefined && run.unchanged(id, json ?? row.encoded!)) return 'unchanged';
  row.bytes = json === undefined ? row.encoded!.length : Buffer.byteLength(json, 'utf8');
  return row.bytes > run.maxItemBytes ? 'too-large' : 'batch';
}

/**
 * Whether a row's item is its id's first item byte for byte. A row the state holds as it is has no
 * JSON made: it repeats a first row the state held too, and a first row the state held is repeated
 * by a later item the state holds.
 */
function repeats(first: ItemHash, mark: ItemHash, json: ItemJson | undefined, id: string, run: RunKnowledge<unknown>): boolean {
  const held = (m: ItemHash) => m.hi === STATE_ITEM.hi && m.lo === STATE_ITEM.lo;
  if (held(first) && !held(mark)) return run.holds(id, json!);
  return first.hi === mark.hi && first.lo === mark.lo;
}

/** Whether the row's owner or agent is in none of the run's sales profiles; `detail` then names them, quoted. */
function absent(row: Candidate<unknown>, run: RunKnowledge<unknown>): boolean {
  const { ownerExternalId: owner, agentExternalId: agent } = row;
  const out = (id: unknown): id is string => typeof id === 'string' && !run.carriesProfile(id);
  const ids = [out(owner) ? owner : undefined, out(agent) && agent !== owner ? agent : undefined].filter((id) => id !== undefined);
  if (ids.length > 0) row.detail = ids.map((id) => JSON.stringify(id)).join(', ');
  return ids.length > 0;
}

function failed(id: unknown, profiles: ReadonlySet<string>): string | undefined {
  return typeof id === 'string' && profiles.has(id) ? id : undefined;
}
