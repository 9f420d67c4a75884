// init on several files: the proposals tied together (map/propose/cross-proposals.ts) — ids aligned
// with how the deals name their owners, lookups, and sales profiles derived from the deals' owner
// column when no file of the run holds any — with what each changed, for init's "across files".
import { basename, dirname, join, relative, sep } from 'node:path';
import { FILL_IN } from '../map/load-profile.js';
import { describeFields, placeholdersOf } from '../map/propose.js';
import { alignProfileIds, deriveSalesProfiles, keepReferencesText, ownersFromUserIds } from '../map/propose/cross-proposals.js';
import type { Proposed, Sampled } from './init-sample.js';

/** `deals.csv` → `deals.sales-profile.profile.json` beside it (the name push takes for `deals.csv:sales-profile`): the derived sales profiles' own profile. */
const ownersBeside = (file: string) => join(dirname(file), `${basename(file).replace(/\.[^.]+$/, '')}.sales-profile.profile.json`);

export function tieFiles(all: Proposed[], sampled: readonly Sampled[]): { derived: Proposed[]; notes: string[]; ownerCsv?: OwnerCsv } {
  const notes: string[] = [];
  const cross = all.map((p, i) => ({ file: p.file, out: p.out, resource: p.resource, profile: p.proposal.profile, rows: p.rows, header: sampled[i]!.header }));
  ownersFromUserIds(cross, notes);
  alignProfileIds(cross, notes);
  keepReferencesText(cross, notes);
  const derived: Proposed[] = deriveSalesProfiles(cross, (d) => ownersBeside(d.file)).map((job) => {
    const deals = all.find((p) => p.file === job.file)!;
    const proposal = { profile: job.profile, mapped: [], customFields: [], fillIn: placeholdersOf(job.profile), notes: [] };
    notes.push(
      `sales profiles: ${job.reason}; ${job.out} makes one per distinct owner of ${basename(job.file)} (identical repeats are sent once); their e-mail is yours to give (the export holds none)`,
    );
    return { ...deals, out: job.out, resource: 'sales-profile', guessed: job.reason, proposal };
  });
  const once = askOwnerOnce(all, derived, notes);
  // what the ties changed is what each profile now maps
  for (const p of [...all, ...once.derived]) {
    p.proposal.mapped = describeFields(p.proposal.profile.fields as Record<string, Record<string, unknown>>);
    const specs = (p.proposal.profile.customFields ?? []) as { key: string; type: Proposed['proposal']['customFields'][number]['type'] }[];
    if (p.proposal.profile.customFields) p.proposal.customFields = p.proposal.customFields.filter((c) => specs.some((s) => s.key === c.key));
    for (const c of p.proposal.customFields) c.type = specs.find((s) => s.key === c.key)?.type ?? c.type;
    // a placeholder a tie filled (the owner found in the users' ids) is asked no more
    const fields = p.proposal.profile.fields as Record<string, Record<string, unknown>>;
    p.proposal.fillIn = p.proposal.fillIn.filter((x) => !/^fields\.(.+)\.const$/.test(x.path) || isAsked(fields[x.path.slice(7, -6)]?.const));
  }
  return { derived: once.derived, notes, ownerCsv: once.ownerCsv };
}

/** The one-row file init writes for an owner the export lacks: where, and its text. */
export interface OwnerCsv {
  path: string;
  text: string;
}

const OWNER = { role: 'deal owner', header: ['Role', 'Owner ID', 'E-mail', 'Full name'] };
const isAsked = (v: unknown) => typeof v === 'string' && v.startsWith(FILL_IN);

/**
 * No owner column anywhere: the owner is asked once, in one row of `owner.csv` beside the deals,
 * which the sales-profile job reads (one row, not the whole deals file) and every deal and activity
 * profile looks the owner's id up in, instead of one placeholder per field and file.
 */
function askOwnerOnce(all: readonly Proposed[], derived: Proposed[], notes: string[]): { derived: Proposed[]; ownerCsv?: OwnerCsv } {
  const asking = derived.filter((d) => isAsked((d.proposal.profile.fields as Record<string, Record<string, unknown>>).externalId?.const));
  if (!asking.length) return { derived };
  const dir = dirname(asking[0]!.file);
  const path = join(dir, 'owner.csv');
  const users: string[] = [];
  for (const p of all.filter((x) => x.resource === 'deal' || x.resource === 'activity')) {
    const fields = p.proposal.profile.fields as Record<string, Record<string, unknown>>;
    const asked = ['ownerExternalId', 'agentExternalId'].filter((f) => fields[f] && isAsked(fields[f].const));
    if (!asked.length) continue;
    const file = relative(dirname(p.out), path).split(sep).join('/');
    for (const f of asked) fields[f] = { const: OWNER.role, lookup: { file, key: 'Role', value: 'Owner ID' } };
    p.proposal.fillIn = p.proposal.fillIn.filter((x) => !asked.some((f) => x.path === `fields.${f}.const`));
    p.asked = asked;
    users.push(basename(p.out));
  }
  const out = join(dir, 'owner.profile.json');
  const fields = {
    externalId: { column: 'Owner ID' },
    email: { column: 'E-mail' },
    'profile.firstName': { column: 'Full name', transform: 'firstName' },
    'profile.lastName': { column: 'Full name', transform: 'lastName' },
  };
  const why = `the export names no owner: one row of ${basename(path)} is the owner of every deal and activity`;
  const owner: Proposed = {
    file: path,
    out,
    resource: 'sales-profile',
    guessed: why,
    proposal: {
      profile: { resource: 'sales-profile', reader: { delimiter: ',', encoding: 'utf-8', headerRow: 1 }, timeZone: 'UTC', fields },
      mapped: [],
      customFields: [],
      fillIn: [
        {
          path: 'line 2',
          reason: `the owner's id (empty until then: every deal and activity is refused), e-mail and full name, written once: ${[...users, basename(out)].join(', ')} read them there`,
        },
      ],
      notes: [],
    },
    rows: [],
    complete: true,
    header: OWNER.header,
    warnings: [],
    asked: Object.keys(fields),
  };
  // the notes of the jobs this one replaces
  const replaced = new Set(asking.map((a) => a.out));
  notes.splice(0, notes.length, ...notes.filter((n) => ![...replaced].some((r) => n.includes(basename(r)))));
  notes.push(`sales profiles: ${why}; ${basename(out)} reads it as the sales profile, and ${users.join(', ')} look the owner's id up in it`);
  // the id left empty: until it is filled in, every row that needs it is refused, none sent with a placeholder for an id
  const row = [OWNER.role, '', "<FILL IN: e-mail of the deals' owner>", "<FILL IN: full name of the deals' owner>"];
  return { derived: [...derived.filter((d) => !asking.includes(d)), owner], ownerCsv: { path, text: `${OWNER.header.join(',')}\n${row.join(',')}\n` } };
}
