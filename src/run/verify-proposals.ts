// `init` tries its proposals before writing them: each file's proposed profile checked on the file
// (rows/check-profile.ts), revised where the data refuses it (map/propose/revise.ts), and checked
// again, until nothing changes (three rounds at most), all within one time budget shared by the
// files by size. Mutates each proposal (its fields, notes and placeholders) and returns the last
// check of each, for init's closing lines.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Method, Resource } from '../contract/resources.js';
import { describeFields, type Proposal } from '../map/propose.js';
import { type CheckCounts, reviseProposal } from '../map/propose/revise.js';
import type { Spec } from '../map/propose/rules.js';
import { targetShape } from '../map/target-fields.js';
import { BACKSLASH_ESCAPED } from '../read/csv/row-builder.js';
import type { ReaderOptions } from '../read/types.js';
import { plural } from '../report/plural.js';
import { checkProfile, type ProfileCheck } from '../rows/check-profile.js';
import { MYSQL_NULL } from '../rows/mysql-null.js';

export interface ToVerify {
  file: string;
  /** Where the profile is to be written (its lookups are relative to it). */
  out: string;
  resource: Resource;
  proposal: Proposal;
  /** The sample init proposed from, and whether it was the whole file. */
  rows: readonly Record<string, string>[];
  complete: boolean;
  /** Fields whose value is asked elsewhere (the owner, in owner.csv): not counted, like placeholders. */
  asked?: readonly string[];
}

export interface VerifyOptions {
  method: Method;
  reader?: ReaderOptions;
  budgetMs: number;
  onProgress?(file: string, rowsRead: number): void;
}

const ROUNDS = 3;
/** Each pass gets at least this long, however little of the budget is left. */
const MIN_PASS_MS = 1000;

export async function verifyProposals<T extends ToVerify>(files: readonly T[], options: VerifyOptions): Promise<Map<T, ProfileCheck>> {
  const deadline = Date.now() + options.budgetMs;
  const sizes = new Map<T, number>();
  for (const f of files) sizes.set(f, Math.max(1, (await stat(f.file)).size));
  const checks = new Map<T, ProfileCheck>();
  let pending = [...files];
  for (let round = 0; round < ROUNDS && pending.length; round++) {
    const next: T[] = [];
    // the first round takes most of the budget; a revision's check what is left
    let share = (round === 0 ? 0.7 : 1) * Math.max(0, deadline - Date.now());
    let sizeLeft = pending.reduce((n, f) => n + sizes.get(f)!, 0);
    for (const f of pending) {
      const budgetMs = Math.max(MIN_PASS_MS, (share * sizes.get(f)!) / sizeLeft);
      const started = Date.now();
      const check = await checkProfile({
        file: f.file,
        resource: f.resource,
        method: options.method,
        profile: f.proposal.profile,
        dir: dirname(resolve(f.out)),
        reader: options.reader,
        budgetMs,
        asked: f.asked,
        estimatedRows: estimateRows(f, sizes.get(f)!),
        onProgress: (n) => options.onProgress?.(f.file, n),
      });
      share -= Date.now() - started;
      sizeLeft -= sizes.get(f)!;
      // what an earlier round took out stays said
      check.lookupsFailed.unshift(...(checks.get(f)?.lookupsFailed ?? []));
      checks.set(f, check);
      // a file read wrong is read right before its fields are revised from what it holds
      if (round < ROUNDS - 1 && (escapeBackslash(f, check, options.reader) || mysqlNull(f, check, options.reader))) {
        next.push(f);
        // the files that look up in this one read it as it is now read; one checked already is checked again
        const checked = new Set(pending.slice(0, pending.indexOf(f)));
        for (const g of lookingUpIn(f, files)) if (checked.has(g) && !next.includes(g)) next.push(g);
      } else if (round < ROUNDS - 1 && revise(f, check, options.method) && !next.includes(f)) next.push(f);
    }
    pending = next;
  }
  return checks;
}

/**
 * Rows past the sample whose quotes are escaped with a backslash (a MySQL export's `\"`), read
 * with the default escape: the proposal reads the file with escape `\`; true when it changed.
 */
function escapeBackslash(f: ToVerify, check: ProfileCheck, given: ReaderOptions | undefined): boolean {
  const reader = f.proposal.profile.reader as ReaderOptions | undefined;
  if (reader?.escape !== undefined || given?.escape !== undefined) return false;
  const found = [...(check.fields.get('(row)')?.reasons.values() ?? [])].find((r) => r.example.startsWith(BACKSLASH_ESCAPED));
  if (!found) return false;
  f.proposal.profile.reader = { ...reader, escape: '\\' };
  f.proposal.notes.push(
    `reader.escape: "\\\\": quotes escaped with a backslash (\\") in ${plural(found.count, 'row')} past the sample (first on line ${found.line}), as MySQL exports write them; read so, they are readable`,
  );
  return true;
}

/**
 * MySQL's `\N` as the file's NULL past the sample (the sample would have said so): the proposal reads
 * those cells as empty, rather than sending "\N" as a value; true when it changed.
 */
function mysqlNull(f: ToVerify, check: ProfileCheck, given: ReaderOptions | undefined): boolean {
  const reader = f.proposal.profile.reader as ReaderOptions | undefined;
  if (!check.nulls || reader?.null !== undefined || given?.null !== undefined) return false;
  f.proposal.profile.reader = { ...reader, null: MYSQL_NULL };
  f.proposal.notes.push(
    `reader.null: "${MYSQL_NULL}" is MySQL's NULL in ${plural(check.nulls.columns.length, 'column')} of the rows checked past the sample (first on line ${check.nulls.firstLine}): those cells are read as empty`,
  );
  return true;
}

/** The other files whose lookups read `f`'s file, their lookups given its reader as it now is. */
function lookingUpIn<T extends ToVerify>(f: T, files: readonly T[]): T[] {
  const path = resolve(f.file);
  const reader = f.proposal.profile.reader as Record<string, unknown>;
  return files.filter((g) => {
    if (g === f) return false;
    const specs = [...Object.values(g.proposal.profile.fields as Record<string, Spec>), ...((g.proposal.profile.customFields ?? []) as Spec[])];
    const lookups = specs.map((s) => s.lookup as { file: string; reader?: unknown } | undefined).filter((l) => l && resolve(dirname(g.out), l.file) === path);
    for (const l of lookups) l!.reader = { ...reader };
    return lookups.length > 0;
  });
}

/** The proposal revised from its check; true when anything changed (it is then checked again). */
function revise(f: ToVerify, check: ProfileCheck, method: Method): boolean {
  const p = f.proposal;
  const fields = p.profile.fields as Record<string, Spec>;
  const shape = targetShape(f.resource, method);
  const customs = (p.profile.customFields ?? []) as Spec[];
  const r = reviseProposal(
    fields,
    p.candidates ?? {},
    countsOf(check),
    (path) => shape.fields.get(path)?.kind,
    customs,
    (path) => shape.fields.get(path)?.required ?? true,
  );
  p.profile.fields = r.fields;
  if (customs.length) p.profile.customFields = r.customFields;
  p.customFields = p.customFields.filter((c) => !customs.length || r.customFields.some((x) => x.key === c.key));
  for (const c of p.customFields) c.type = (r.customFields.find((x) => x.key === c.key)?.type as typeof c.type | undefined) ?? c.type;
  p.mapped = describeFields(r.fields);
  p.candidates = r.candidates;
  // a won rule revised from the whole file supersedes what the sample said of it
  if (r.notes.some((n) => n.startsWith('isWon:'))) p.notes = p.notes.filter((n) => !n.startsWith('isWon:'));
  // a later round finds again what an earlier one said (a field empty in a few rows): said once
  p.notes.push(...r.notes.filter((n) => !p.notes.includes(n)));
  p.fillIn.push(...r.fillIn);
  return r.changed;
}

function countsOf(check: ProfileCheck): CheckCounts {
  const fields = new Map(
    [...check.fields].map(([field, t]) => {
      const top = [...t.reasons.values()].filter((r) => !r.empty).sort((a, b) => b.count - a.count)[0];
      return [field, { invalid: t.invalid, empty: t.empty, firstEmptyLine: t.firstEmptyLine, reason: top?.example, filled: check.filled.get(field) }];
    }),
  );
  return { checked: check.checked, fields, lookupsFailed: check.lookupsFailed, mapped: check.mapped, idRepeats: check.idRepeats };
}

/** Rows the file holds: the sample when it was all of it, else the file's size over the sample's bytes per row. */
function estimateRows(f: ToVerify, size: number): number | undefined {
  if (f.complete) return f.rows.length;
  if (!f.rows.length) return undefined;
  const bytes = f.rows.reduce((n, r) => n + Object.values(r).reduce((m, v) => m + v.length + 1, 0), 0);
  return Math.round((size * f.rows.length) / Math.max(1, bytes));
}
