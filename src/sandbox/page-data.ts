// The JSON behind the sandbox's page: what it holds and was sent, a page at a time. Every answer is
// bounded whatever the sandbox holds (100 entries a page, a record's text cut at 1 MB), so a million
// records never make a giant answer; the search is by externalId prefix, here on the server.
import type { Resource } from '../contract/resources.js';
import type { BatchLogEntry } from './batch-history.js';
import type { BatchRefusal, RefusedItem } from './refusal-log.js';
import type { SandboxState } from './sandbox-state.js';

const PAGE_SIZE = 100;
const RECORD_TEXT_LIMIT = 1024 * 1024;
const LABEL_LIMIT = 80;

export interface PageSummary {
  records: Record<Resource, number>;
  batches: number;
  itemsReceived: number;
  itemsAccepted: number;
  itemsRejected: number;
  refusals: number;
  /** Changes whenever anything the page lists may have: the page refetches its lists then. */
  version: string;
}

export function pageSummary(state: SandboxState): PageSummary {
  const stats = state.stats();
  const version = `${state.history.lastSeq()}:${stats.requests}:${Object.values(stats.records).join(',')}`;
  const { records, batches, itemsReceived, itemsAccepted, itemsRejected } = stats;
  return { records, batches, itemsReceived, itemsAccepted, itemsRejected, refusals: state.refusals.count(), version };
}

/** A short name to tell records apart in a list: the title, a name or an e-mail, cut short. */
function labelOf(record: Record<string, unknown>): string {
  const profile = record.profile as { firstName?: unknown; lastName?: unknown } | undefined;
  const candidates = [record.title, record.name, profile && [profile.firstName, profile.lastName].filter(Boolean).join(' '), record.email];
  const label = candidates.find((c): c is string => typeof c === 'string' && c !== '') ?? '';
  return label.length > LABEL_LIMIT ? `${label.slice(0, LABEL_LIMIT)}…` : label;
}

function pageNumber(text: string | null): number {
  const n = Number(text ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

export function recordsPage(state: SandboxState, resource: Resource, prefix: string, pageText: string | null) {
  const page = pageNumber(pageText);
  const map = state.store.map(resource);
  const from = page * PAGE_SIZE;
  const records: { externalId: string; label: string }[] = [];
  let matched = 0;
  for (const [id, record] of map) {
    if (prefix !== '' && !id.startsWith(prefix)) continue;
    if (matched >= from && matched < from + PAGE_SIZE) records.push({ externalId: id, label: labelOf(record) });
    matched++;
    // without a search every record matches: no need to walk past the page
    if (prefix === '' && matched >= from + PAGE_SIZE) {
      matched = map.size;
      break;
    }
  }
  return { resource, prefix, total: map.size, matched, page, pageSize: PAGE_SIZE, records };
}

export function recordText(state: SandboxState, resource: Resource, externalId: string) {
  const record = state.record(resource, externalId);
  if (!record) return undefined;
  const text = JSON.stringify(record, null, 2);
  const truncated = text.length > RECORD_TEXT_LIMIT;
  return { resource, externalId, json: truncated ? text.slice(0, RECORD_TEXT_LIMIT) : text, truncated, length: text.length };
}

/** Newest first, each with the reason of its refusal when it was refused whole. */
export function batchesPage(state: SandboxState, pageText: string | null) {
  const page = pageNumber(pageText);
  const all = state.batches();
  const end = all.length - page * PAGE_SIZE;
  const batches: (BatchLogEntry & { refusal?: BatchRefusal })[] = [];
  for (let i = end - 1; i >= Math.max(0, end - PAGE_SIZE); i--) {
    const entry = all[i]!;
    const refusal = state.refusals.reason(entry.seq);
    batches.push(refusal ? { ...entry, refusal } : entry);
  }
  return { total: state.stats().batches, kept: all.length, page, pageSize: PAGE_SIZE, batches };
}

/** Newest first. */
export function refusalsPage(state: SandboxState, pageText: string | null) {
  const page = pageNumber(pageText);
  const all = state.refusals.recent();
  const refusals: RefusedItem[] = all.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  return { total: state.refusals.count(), kept: all.length, page, pageSize: PAGE_SIZE, refusals };
}
