// Checks across the records of one run: duplicate externalIds within a resource, and references to
// sales profiles, accounts and deals that the run does not carry. Kinds are read in dependency
// order, so by the time deals are read every sales profile of the run has been seen.
import type { Resource } from '../contract/resources.js';
import type { Diagnostic } from './diagnostic.js';
import { IdTable } from './id-table.js';

interface Where {
  file: string;
  line: number;
}

export interface CrossChecks {
  /**
   * Registers an item's externalId. Returns an error diagnostic when the id was already seen in
   * this resource: the first occurrence wins (batches run concurrently, so "last wins" would
   * depend on timing) and the later row is not sent.
   */
  claim(resource: Resource, externalId: string, where: Where): Diagnostic | undefined;
  /** Warnings for references to records absent from the run (they may exist on the server). */
  references(resource: Resource, item: Record<string, unknown>, where: Where): readonly Diagnostic[];
}

// A run may carry a million ids per resource: each is kept as one number (file index and line
// packed), not as an object, so the maps stay small.
const LINE_BITS = 2 ** 32;
const NONE: readonly Diagnostic[] = Object.freeze([]);

function more(out: Diagnostic[] | undefined, d: Diagnostic | undefined): Diagnostic[] | undefined {
  if (d) (out ??= []).push(d);
  return out;
}

export function createCrossChecks(): CrossChecks {
  const seen = new Map<Resource, IdTable>();
  const files: string[] = [];
  const fileIndex = new Map<string, number>();
  const pack = (where: Where) => {
    let index = fileIndex.get(where.file);
    if (index === undefined) {
      index = files.push(where.file) - 1;
      fileIndex.set(where.file, index);
    }
    return index * LINE_BITS + where.line;
  };
  const unpack = (packed: number) => `${files[Math.floor(packed / LINE_BITS)]}:${packed % LINE_BITS}`;
  const idsOf = (resource: Resource) => {
    let ids = seen.get(resource);
    if (!ids) seen.set(resource, (ids = new IdTable()));
    return ids;
  };
  const present = (resource: Resource) => seen.get(resource);

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
    claim(resource, externalId, where) {
      const first = idsOf(resource).claim(externalId, pack(where));
      if (first === undefined) return undefined;
      return {
        severity: 'error',
        file: where.file,
        line: where.line,
        field: 'externalId',
        reason: `duplicate externalId "${externalId}": first seen at ${unpack(first)}, which wins; this row is not sent`,
      };
    },
    references(resource, item, where) {
      // most items reference what the run carries: no array is built for them (one per row before)
      let out: Diagnostic[] | undefined;
      if (resource === 'deal') {
        out = more(out, missing('sales-profile', item.ownerExternalId, 'ownerExternalId', where, 'owner'));
        if (item.agentExternalId !== item.ownerExternalId) {
          out = more(out, missing('sales-profile', item.agentExternalId, 'agentExternalId', where, 'agent'));
        }
      }
      if (resource === 'activity') {
        out = more(out, missing('sales-profile', item.ownerExternalId, 'ownerExternalId', where, 'owner'));
        const associated = item.associated as { accountExternalId?: unknown; dealExternalId?: unknown } | undefined;
        if (associated) {
          out = more(out, missing('account', associated.accountExternalId, 'associated.accountExternalId', where, 'account'));
          out = more(out, missing('deal', associated.dealExternalId, 'associated.dealExternalId', where, 'deal'));
        }
      }
      return out ?? NONE;
    },
  };
}
