// init on several files: the proposals tied together (map/propose/cross-proposals.ts) — ids aligned
// with how the deals name their owners, lookups, and sales profiles derived from the deals' owner
// column when no file of the run holds any — with what each changed, for init's "across files".
import { basename, dirname, join } from 'node:path';
import { describeFields, placeholdersOf } from '../map/propose.js';
import { alignProfileIds, deriveSalesProfiles, keepReferencesText } from '../map/propose/cross-proposals.js';
import type { Proposed, Sampled } from './init-sample.js';

/** `deals.csv` → `deals.sales-profile.profile.json` beside it (the name push takes for `deals.csv:sales-profile`): the derived sales profiles' own profile. */
const ownersBeside = (file: string) => join(dirname(file), `${basename(file).replace(/\.[^.]+$/, '')}.sales-profile.profile.json`);

export function tieFiles(all: Proposed[], sampled: readonly Sampled[]): { derived: Proposed[]; notes: string[] } {
  const notes: string[] = [];
  const cross = all.map((p, i) => ({ file: p.file, out: p.out, resource: p.resource, profile: p.proposal.profile, rows: p.rows, header: sampled[i]!.header }));
  alignProfileIds(cross, notes);
  keepReferencesText(cross, notes);
  const derived: Proposed[] = deriveSalesProfiles(cross, (d) => ownersBeside(d.file)).map((job) => {
    const deals = all.find((p) => p.file === job.file)!;
    const proposal = { profile: job.profile, mapped: [], customFields: [], fillIn: placeholdersOf(job.profile), notes: [] };
    notes.push(
      `sales profiles: ${job.reason}; ${job.out} makes one per distinct owner of ${basename(job.file)} (identical repeats are sent once), e-mail <id>@example.com (a reserved domain) until you have real ones`,
    );
    return { ...deals, out: job.out, resource: 'sales-profile', guessed: job.reason, proposal };
  });
  // what the ties changed is what each profile now maps
  for (const p of [...all, ...derived]) {
    p.proposal.mapped = describeFields(p.proposal.profile.fields as Record<string, Record<string, unknown>>);
    const specs = (p.proposal.profile.customFields ?? []) as { key: string; type: Proposed['proposal']['customFields'][number]['type'] }[];
    for (const c of p.proposal.customFields) c.type = specs.find((s) => s.key === c.key)?.type ?? c.type;
  }
  return { derived, notes };
}
