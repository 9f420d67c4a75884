// What init says of its proposals once it tried them on the data (run/verify-proposals.ts): how much
// of each file was checked and what the profile would do with it, the most frequent reasons a row
// is refused, and whether the deals' owner ids meet the sales profiles' ids over the rows checked.
import { basename } from 'node:path';
import type { Resource } from '../contract/resources.js';
import type { ProfileCheck } from '../rows/check-profile.js';
import { plural } from '../report/plural.js';

const n = (x: number) => x.toLocaleString('en-US');
const TOP_REASONS = 5;
const MAX_EXAMPLES = 5;

/** `checked against all 11,583 rows: 11,583 valid`, and under it the top reasons with their field and count. */
export function checkedLines(check: ProfileCheck): string[] {
  const { read, checked, whole } = check;
  const what = whole
    ? checked === read
      ? read === 1
        ? 'its 1 row'
        : `all ${n(read)} rows`
      : `${n(checked)} rows spread over all ${n(read)} (checking each would outlast --check-time)`
    : checked === read
      ? `the first ${n(read)} rows (--check-time ran out there)`
      : `${n(checked)} rows spread over the first ${n(read)} (--check-time ran out there)`;
  const counts = [`${n(check.valid)} valid`];
  if (check.invalid) counts.push(`${n(check.invalid)} invalid`);
  if (check.skipped) counts.push(`${n(check.skipped)} skipped by the profile`);
  const once = check.placeholders.length ? ' (once the placeholders are filled)' : '';
  const reasons = [...check.fields].flatMap(([field, t]) => [...t.reasons.values()].map((r) => ({ field, ...r }))).sort((a, b) => b.count - a.count);
  const lines = [`checked against ${what}: ${counts.join(', ')}${once}${reasons.length ? ', by reason:' : ''}`];
  for (const r of reasons.slice(0, TOP_REASONS)) lines.push(`  ${n(r.count).padStart(7)}  ${r.field}: ${r.example} (e.g. line ${r.line})`);
  if (reasons.length > TOP_REASONS) lines.push(`  and ${plural(reasons.length - TOP_REASONS, 'other reason')}: validate shows every row`);
  return lines;
}

interface Checked {
  file: string;
  out: string;
  resource: Resource;
  check: ProfileCheck;
}

/**
 * Whether the owner/agent ids of each deal and activity file, as its profile makes them, are among
 * the sales profiles' ids, over the rows checked; one fix line when any is not.
 */
export function ownerLines(files: readonly Checked[]): string[] | undefined {
  const sellers = files.filter((f) => f.resource === 'sales-profile');
  const referencing = files.filter((f) => f.resource === 'deal' || f.resource === 'activity');
  if (!sellers.length || !referencing.length) return undefined;
  const open = sellers.find((s) => s.check.placeholders.includes('externalId'));
  if (open) return [`owners: not checked: the sales profiles' ids are yours to fill in (${basename(open.out)})`];
  const ids = new Set(sellers.flatMap((s) => [...s.check.ids.get('externalId')!]));
  const against = sellers.map((s) => basename(s.file)).join(', ');
  const lines: string[] = [];
  const fix: string[] = [];
  for (const f of referencing) {
    const owners = new Set([...f.check.ids.get('ownerExternalId')!, ...f.check.ids.get('agentExternalId')!]);
    if (!owners.size) continue;
    const missing = [...owners].filter((o) => !ids.has(o));
    const of = `${plural(owners.size, 'distinct owner/agent id')} of ${basename(f.file)}`;
    if (!missing.length) {
      lines.push(`owners: ${owners.size === 1 ? 'the' : 'all'} ${of} ${owners.size === 1 ? 'is' : 'are'} among the ids of ${against}`);
      continue;
    }
    const shown =
      missing
        .slice(0, MAX_EXAMPLES)
        .map((m) => `"${m}"`)
        .join(', ') + (missing.length > MAX_EXAMPLES ? ', …' : '');
    lines.push(`owners: ${n(missing.length)} of ${of} ${missing.length === 1 ? 'is' : 'are'} not among the ids of ${against}: ${shown}`);
    fix.push(basename(f.out));
  }
  if (fix.length)
    lines.push(
      `  fix: derive the owner ids (ownerExternalId in ${fix.join(', ')}) as ${sellers.map((s) => basename(s.out)).join(', ')} derives its externalId (a "lookup" when they name another column of the sellers' file), or create those sales profiles on the server first`,
    );
  return lines;
}
