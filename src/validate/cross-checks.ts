// Checks across the records of one run: duplicate externalIds within a resource, and references to
// sales profiles, accounts and deals that the run does not carry. Kinds are read in dependency
// order, so by the time deals are read every sales profile of the run has been seen.
import type { Resource } from '../contract/resources.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { IdTable } from '../util/id-table.js';
import type { ItemHash } from '../util/item-hash.js';
import { grownUint32 } from '../util/outgrown.js';

interface Where {
  file: string;
  line: number;
}

/**
 * The mark of an item that is the one the incremental state holds for its id (its row was found
 * unchanged): no hash of an item is all zeros (item-hash.ts), so it is told apart from any.
 */
export const STATE_ITEM: ItemHash = Object.freeze({ hi: 0, lo: 0 });

/** The row an id was first seen at ("file:line") and the mark of its item (its hash, or STATE_ITEM). */
export interface FirstRow {
  at: string;
  mark: ItemHash;
}

export interface CrossChecks {
  /**
   * Registers an item's externalId with its item's mark. When the id was already seen in this
   * resource, returns that first row: it wins (batches run concurrently, so "last wins" would
   * depend on timing) and the later row is not sent.
   */
  claim(resource: Resource, externalId: string, where: Where, mark: ItemHash): FirstRow | undefined;
  /** The id claimed last in this resource has the item the state holds (its row was found unchanged). */
  heldAsIs(resource: Resource): void;
  /** Warnings for references to records absent from the run (they may exist on the server). */
  references(resource: Resource, item: Record<string, unknown>, where: Where): readonly Diagnostic[];
  /**
   * Distinct owner/agent ids of deals and activities that are not among this run's sales profiles
   * (all of them when the run carries none): said once in the report, since they must already exist
   * on the server.
   */
  ownersNotInRun(): number;
  /** Whether a sales profile of this run has this id (so far: kinds are read in dependency order). */
  carriesProfile(id: string): boolean;
  /**
   * The same ids (deals' owners and agents, activities' owners: the ones a server checks, and the
   * embedded sandbox does) with the first few named, for the end-of-run hint.
   */
  namedOwnersNotInRun(): OwnersNotInRun;
}

export interface OwnersNotInRun {
  count: number;
  /** The first ones met, in reading order (at most NAMED_OWNERS). */
  ids: string[];
}

/** Owner ids the sandbox's hint names; a count says how many more. */
const NAMED_OWNERS = 10;

/**
 * The ids of one resource and where each was first seen. A run may carry a million of them: each
 * id's line is one word by its entry number, and its file is found from where the files changed
 * (entries are added in reading order, so one file's are consecutive).
 */
class FirstSeen {
  readonly ids = new IdTable();
  private lines = new Uint32Array(1024);
  /** Each entry's item mark, two words (hi, lo): 8 bytes an id, never the item itself. */
  private marks = new Uint32Array(2048);
  private readonly fileStarts: number[] = [];
  private readonly fileNames: string[] = [];

  /** Adds the id; when it was seen before, says where and what its item was. */
  claim(id: string, where: Where, mark: ItemHash): FirstRow | undefined {
    const first = this.ids.claim(id);
    if (first >= 0) return { at: `${this.fileOf(first)}:${this.lines[first]}`, mark: { hi: this.marks[2 * first]!, lo: this.marks[2 * first + 1]! } };
    const entry = this.ids.size - 1;
    if (entry === this.lines.length) {
      this.lines = grownUint32(this.lines, Math.ceil(this.lines.length * 1.5));
      this.marks = grownUint32(this.marks, 2 * this.lines.length);
    }
    this.lines[entry] = where.line;
    this.mark(entry, mark);
    if (this.fileNames.at(-1) !== where.file) {
      this.fileStarts.push(entry);
      this.fileNames.push(where.file);
    }
    return undefined;
  }

  mark(entry: number, mark: ItemHash): void {
    this.marks[2 * entry] = mark.hi;
    this.marks[2 * entry + 1] = mark.lo;
  }

  private fileOf(entry: number): string {
    let i = this.fileStarts.length - 1;
    while (this.fileStarts[i]! > entry) i--;
    return this.fileNames[i]!;
  }
}

const NONE: readonly Diagnostic[] = Object.freeze([]);

function more(out: Diagnostic[] | undefined, d: Diagnostic | undefined): Diagnostic[] | undefined {
  if (d) (out ??= []).push(d);
  return out;
}

export function createCrossChecks(): CrossChecks {
  const seen = new Map<Resource, FirstSeen>();
  const idsOf = (resource: Resource) => {
    let ids = seen.get(resource);
    if (!ids) seen.set(resource, (ids = new FirstSeen()));
    return ids;
  };
  const present = (resource: Resource) => seen.get(resource)?.ids;
  const absentOwners = new IdTable();
  const named: string[] = [];
  const carries = (id: string) => present('sales-profile')?.has(id) === true;
  const owner = (id: unknown) => {
    if (typeof id !== 'string' || carries(id)) return;
    if (absentOwners.claim(id) < 0 && named.length < NAMED_OWNERS) named.push(id);
  };

  function missing(resource: Resource, id: unknown, field: string, where: Where, what: string): Diagnostic | undefined {
    const ids = present(resource);
    // only warn when the run carries that kind at all: a deals-only run says nothing about profiles
    if (typeof id !== 'string' || !ids || ids.has(id)) return undefined;
    return {
      severity: 'warning',
      file: where.file,
      line: where.line,
      field,
      reason: `${what} "${id}" is not among this run's ${resource}s (it must already exist on the server)`,
    };
  }

  return {
    claim: (resource, externalId, where, mark) => idsOf(resource).claim(externalId, where, mark),
    heldAsIs(resource) {
      const ids = idsOf(resource);
      if (ids.ids.size > 0) ids.mark(ids.ids.size - 1, STATE_ITEM);
    },
    references(resource, item, where) {
      // most items reference what the run carries: no array is built for them (one per row before)
      let out: Diagnostic[] | undefined;
      if (resource === 'deal') {
        owner(item.ownerExternalId);
        owner(item.agentExternalId);
        out = more(out, missing('sales-profile', item.ownerExternalId, 'ownerExternalId', where, 'owner'));
        if (item.agentExternalId !== item.ownerExternalId) {
          out = more(out, missing('sales-profile', item.agentExternalId, 'agentExternalId', where, 'agent'));
        }
      }
      if (resource === 'activity') {
        owner(item.ownerExternalId);
        out = more(out, missing('sales-profile', item.ownerExternalId, 'ownerExternalId', where, 'owner'));
        const associated = item.associated as { accountExternalId?: unknown; dealExternalId?: unknown } | undefined;
        if (associated) {
          out = more(out, missing('account', associated.accountExternalId, 'associated.accountExternalId', where, 'account'));
          out = more(out, missing('deal', associated.dealExternalId, 'associated.dealExternalId', where, 'deal'));
        }
      }
      return out ?? NONE;
    },
    ownersNotInRun: () => absentOwners.size,
    carriesProfile: carries,
    namedOwnersNotInRun: () => ({ count: absentOwners.size, ids: [...named] }),
  };
}
