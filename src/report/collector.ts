// Gathers every row's outcome during a run. Accepted rows are only counted, so memory stays flat for a
// million-row import; rows not accepted are kept (up to a cap) for the report, and every one of them
// goes to the optional sink as it arrives, so the errors CSV gets all rows whatever the cap.
import { RESOURCES, resourceFromFileName, type Resource } from '../contract/resources.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { groupKey, groupLabel, normaliseReason } from './group-key.js';
import { serverField } from './server-field.js';
import { OUTCOMES, isDeliberateSkip, type OutcomeKind, type RowOutcome } from '../plan/outcome.js';

export interface ResourceCounts {
  /** Rows that reached an outcome: always accepted + rejected + invalid + skipped. */
  read: number;
  accepted: number;
  rejected: number;
  invalid: number;
  skipped: number;
  warnings: number;
}

export interface FileCounts {
  file: string;
  resource: Resource;
  counts: ResourceCounts;
}

export interface OutcomeGroup {
  key: string;
  resource: Resource;
  outcome: Exclude<OutcomeKind, 'accepted'>;
  /** `VALIDATION_ERROR amount.currency: "…" is not an ISO-4217 currency code` */
  label: string;
  count: number;
  /** The first few rows, with their full (not normalised) text. */
  examples: RowOutcome[];
}

export interface WarningGroup {
  key: string;
  resource?: Resource;
  label: string;
  count: number;
  examples: Diagnostic[];
}

export interface CollectorOptions {
  /** Example rows kept per group. */
  maxExamples?: number;
  /** Rows not accepted kept for listing; beyond it only counts and groups grow. */
  maxKept?: number;
  /** Distinct groups per run; beyond it rows go to an "other reasons" group per resource and outcome. */
  maxGroups?: number;
  /** Receives every row not accepted, as it is recorded (the errors CSV writer). */
  sink?: (o: RowOutcome) => void;
}

export interface Collector {
  record(o: RowOutcome): void;
  /** A warning: the row still has its own outcome. `resource` defaults to the one the file name says. */
  warn(d: Diagnostic, resource?: Resource): void;
  /** Per resource, in sending order, for the resources seen. */
  counts(): Partial<Record<Resource, ResourceCounts>>;
  /** Per input file, in the order files first had an outcome or a warning (the JUnit report's test suites). */
  fileCounts(): FileCounts[];
  totals(): ResourceCounts;
  /** Rows with an outcome, for one resource or all: compare with what the readers produced. */
  total(resource?: Resource): number;
  /** Resources whose recorded outcomes differ from the rows read: should always be empty. */
  unaccounted(read: Partial<Record<Resource, number>>): Array<{ resource: Resource; read: number; recorded: number }>;
  groups(): OutcomeGroup[];
  warningGroups(): WarningGroup[];
  notAccepted(): readonly RowOutcome[];
  /** Rows not accepted that were counted and grouped but not kept (over maxKept). */
  notListed(): number;
  /** Rows skipped on purpose (isDeliberateSkip): counted as skipped, never a failure. */
  deliberateSkips(): number;
  /** The warnings kept: the examples of every group, in the order they were found. */
  warnings(): readonly Diagnostic[];
  /** Warnings counted (and grouped) but not among the examples kept. */
  warningsNotListed(): number;
}

const DEFAULT_MAX_KEPT = 100_000;
const DEFAULT_MAX_GROUPS = 1_000;
const OTHER_REASONS = '(other reasons: too many distinct messages to group)';

const zero = (): ResourceCounts => ({ read: 0, accepted: 0, rejected: 0, invalid: 0, skipped: 0, warnings: 0 });

/** Rows not accepted, grouped by reason: at most maxGroups groups, the rest in one catch-all per resource and outcome. */
function outcomeGroups(maxGroups: number, maxExamples: number) {
  const groups = new Map<string, OutcomeGroup>();
  // the previous row's key: runs of rows with one reason (a rerun's UNCHANGED rows) normalise it once
  let last: Pick<RowOutcome, 'resource' | 'outcome' | 'message' | 'detail' | 'field' | 'column' | 'file'> & { key: string } = {
    resource: 'deal',
    outcome: 'accepted',
    message: '',
    detail: '',
    file: '',
    key: '',
  };
  // (the file, for identical repeats: grouped per file, group-key.ts)
  const keyOf = (o: RowOutcome): string => {
    if (
      o.detail === last.detail &&
      o.message === last.message &&
      o.field === last.field &&
      o.column === last.column &&
      o.resource === last.resource &&
      o.outcome === last.outcome &&
      o.file === last.file
    )
      return last.key;
    last = { resource: o.resource, outcome: o.outcome, message: o.message, detail: o.detail, field: o.field, column: o.column, file: o.file, key: groupKey(o) };
    return last.key;
  };
  return {
    add(o: RowOutcome & { outcome: OutcomeGroup['outcome'] }): void {
      let key = keyOf(o);
      let group = groups.get(key);
      if (!group && groups.size >= maxGroups) {
        key = `${o.resource}\u0000${o.outcome}\u0000${OTHER_REASONS}`;
        group = groups.get(key);
      }
      if (!group) {
        const label = key.endsWith(OTHER_REASONS) ? OTHER_REASONS : groupLabel(o);
        group = { key, resource: o.resource, outcome: o.outcome, label, count: 0, examples: [] };
        groups.set(key, group);
      }
      group.count++;
      if (group.examples.length < maxExamples) group.examples.push(o);
    },
    sorted: () => sortGroups([...groups.values()]),
  };
}

/**
 * Warnings, grouped by resource, field and normalised reason, the same way as outcomes. Only a
 * count and the first examples per group are kept (`listed`, in the order they were found): a
 * warning on each of a million rows costs what one does.
 */
function warningGroupsOf(maxGroups: number, maxExamples: number) {
  const groups = new Map<string, WarningGroup>();
  const listed: Diagnostic[] = [];
  return {
    listed,
    add(d: Diagnostic, r: Resource | undefined): void {
      const label = [d.field, normaliseReason(d.reason)].filter(Boolean).join(': ');
      let key = `${r ?? ''}\u0000${label}`;
      if (!groups.has(key) && groups.size >= maxGroups) key = `${r ?? ''}\u0000${OTHER_REASONS}`;
      let group = groups.get(key);
      if (!group) {
        group = { key, resource: r, label: key.endsWith(OTHER_REASONS) ? OTHER_REASONS : label, count: 0, examples: [] };
        groups.set(key, group);
      }
      group.count++;
      if (group.examples.length < maxExamples) {
        group.examples.push(d);
        listed.push(d);
      }
    },
    sorted(): WarningGroup[] {
      const order = (r?: Resource) => (r ? RESOURCES.indexOf(r) : RESOURCES.length);
      return [...groups.values()].sort((a, b) => order(a.resource) - order(b.resource) || b.count - a.count);
    },
  };
}

/** Counts per resource, in sending order, and the checks that every row read got an outcome. */
function resourceCounts() {
  const perResource = new Map<Resource, ResourceCounts>();
  const unassignedWarnings = { count: 0 };
  const countsOf = (r: Resource): ResourceCounts => {
    let c = perResource.get(r);
    if (!c) perResource.set(r, (c = zero()));
    return c;
  };
  // the sum of outcomes, not c.read: this is the check that `read` was kept in step
  function total(resource?: Resource): number {
    const list = resource ? [perResource.get(resource) ?? zero()] : [...perResource.values()];
    return list.reduce((sum, c) => sum + c.accepted + c.rejected + c.invalid + c.skipped, 0);
  }
  return {
    countsOf,
    unassignedWarnings,
    total,
    counts() {
      const out: Partial<Record<Resource, ResourceCounts>> = {};
      for (const r of RESOURCES) {
        const c = perResource.get(r);
        if (c) out[r] = { ...c };
      }
      return out;
    },
    totals() {
      const t = zero();
      for (const c of perResource.values()) {
        for (const k of Object.keys(t) as Array<keyof ResourceCounts>) t[k] += c[k];
      }
      t.warnings += unassignedWarnings.count;
      return t;
    },
    unaccounted(read: Partial<Record<Resource, number>>) {
      const out: Array<{ resource: Resource; read: number; recorded: number }> = [];
      for (const r of RESOURCES) {
        const recorded = total(r);
        const n = read[r] ?? 0;
        if (n !== recorded) out.push({ resource: r, read: n, recorded });
      }
      return out;
    },
  };
}

export function createCollector(options: CollectorOptions = {}): Collector {
  const maxExamples = options.maxExamples ?? 3;
  const maxKept = options.maxKept ?? DEFAULT_MAX_KEPT;
  const maxGroups = options.maxGroups ?? DEFAULT_MAX_GROUPS;
  const { countsOf, unassignedWarnings, ...tally } = resourceCounts();
  const groups = outcomeGroups(maxGroups, maxExamples);
  const warningGroups = warningGroupsOf(maxGroups, maxExamples);
  const kept: RowOutcome[] = [];
  let notListed = 0;
  let deliberateSkips = 0;
  let warningCount = 0;
  const perFile = new Map<string, FileCounts>();
  // rows come file by file: the last file's counts are at hand without a lookup
  let lastFile: FileCounts | undefined;
  const fileOf = (file: string, resource: Resource): ResourceCounts => {
    if (lastFile?.file !== file || lastFile.resource !== resource) {
      const key = `${resource}\u0000${file}`;
      lastFile = perFile.get(key);
      if (!lastFile) perFile.set(key, (lastFile = { file, resource, counts: zero() }));
    }
    return lastFile.counts;
  };

  return {
    record(o) {
      if (!OUTCOMES.includes(o.outcome)) throw new Error(`unknown outcome "${String(o.outcome)}" for ${o.file}:${o.line}`);
      const c = countsOf(o.resource);
      c[o.outcome]++;
      c.read++;
      const f = fileOf(o.file, o.resource);
      f[o.outcome]++;
      f.read++;
      if (o.outcome === 'accepted') return;
      if (o.outcome === 'rejected' && o.field === undefined) {
        const field = serverField(o.detail, o.resource, o.externalId);
        if (field !== undefined) o = { ...o, field };
      }
      groups.add(o as RowOutcome & { outcome: OutcomeGroup['outcome'] });
      if (isDeliberateSkip(o)) {
        deliberateSkips++;
        // unchanged rows of an incremental run are the point of it, and a repeat was sent with the
        // row it repeats: a count, never a listing
        if (o.message === 'UNCHANGED' || o.message === 'DUPLICATE_IDENTICAL') return;
      }
      if (kept.length < maxKept) kept.push(o);
      else notListed++;
      options.sink?.(o);
    },
    warn(d, resource) {
      const r = resource ?? resourceFromFileName(d.file);
      if (r) {
        countsOf(r).warnings++;
        fileOf(d.file, r).warnings++;
      } else unassignedWarnings.count++;
      warningGroups.add(d, r);
      warningCount++;
    },
    ...tally,
    fileCounts: () => [...perFile.values()].map((f) => ({ ...f, counts: { ...f.counts } })),
    groups: groups.sorted,
    warningGroups: warningGroups.sorted,
    notAccepted: () => kept,
    notListed: () => notListed,
    deliberateSkips: () => deliberateSkips,
    warnings: () => warningGroups.listed,
    warningsNotListed: () => warningCount - warningGroups.listed.length,
  };
}

/** Sending order of resources, then rejected/invalid/skipped, then the biggest group first (stable), the catch-all last. */
function sortGroups(list: OutcomeGroup[]): OutcomeGroup[] {
  return list.sort(
    (a, b) =>
      RESOURCES.indexOf(a.resource) - RESOURCES.indexOf(b.resource) ||
      OUTCOMES.indexOf(a.outcome) - OUTCOMES.indexOf(b.outcome) ||
      Number(a.label === OTHER_REASONS) - Number(b.label === OTHER_REASONS) ||
      b.count - a.count,
  );
}
