// `init` on several files: do the deals' (and activities') owner/agent values, as their proposed
// profiles derive them, appear among the ids proposed for the sales-profile file? Checked on the
// samples init read, before anything is sent. Pure: values in, counts out.
import type { Resource } from '../../contract/resources.js';
import type { TextTransform } from '../profile-schema.js';
import { TEXT } from '../transforms/index.js';

export interface ProposedFile {
  file: string;
  resource: Resource;
  profile: Record<string, unknown>;
  rows: readonly Record<string, string>[];
  /** False when the sample is not the whole file. */
  complete: boolean;
}

export interface OwnerCheck {
  /** The file whose owner/agent values were checked. */
  file: string;
  /** The sales-profile files whose proposed ids they were checked against. */
  against: string[];
  distinct: number;
  missing: string[];
  /** Whether every sales-profile sample was its whole file (else a missing id may be further down). */
  wholeProfiles: boolean;
}

export type CrossFileCheck = { kind: 'checked'; checks: OwnerCheck[] } | { kind: 'no-profiles' } | { kind: 'cannot'; reason: string };

type Spec = { column?: unknown; transform?: unknown; trim?: unknown };

/** The values a field spec gives on the sample, when it is a plain column with text transforms; undefined otherwise. */
function derive(spec: unknown, rows: readonly Record<string, string>[]): string[] | undefined {
  if (!spec || typeof spec !== 'object') return typeof spec === 'string' ? rows.map((r) => (r[spec] ?? '').trim()).filter(Boolean) : undefined;
  const s = spec as Spec;
  if (typeof s.column !== 'string') return undefined;
  const names = s.transform === undefined ? [] : Array.isArray(s.transform) ? s.transform : [s.transform];
  if (!names.every((n): n is TextTransform => typeof n === 'string' && n in TEXT)) return undefined;
  const column = s.column;
  return rows.flatMap((r) => {
    let v = r[column] ?? '';
    if (s.trim !== false) v = v.trim();
    for (const n of names) v = TEXT[n](v);
    return v ? [v] : [];
  });
}

export function checkOwnersAcrossFiles(files: readonly ProposedFile[]): CrossFileCheck {
  const profiles = files.filter((f) => f.resource === 'sales-profile');
  const referencing = files.filter((f) => f.resource === 'deal' || f.resource === 'activity');
  if (!referencing.length) return { kind: 'checked', checks: [] };
  if (!profiles.length) return { kind: 'no-profiles' };
  const ids = new Set<string>();
  for (const p of profiles) {
    const v = derive((p.profile.fields as Record<string, unknown>).externalId, p.rows);
    if (!v) return { kind: 'cannot', reason: `the externalId proposed for ${p.file} is not a column yet` };
    for (const id of v) ids.add(id);
  }
  const checks: OwnerCheck[] = [];
  for (const f of referencing) {
    const fields = f.profile.fields as Record<string, unknown>;
    const values = new Set<string>();
    for (const field of ['ownerExternalId', 'agentExternalId']) {
      if (!(field in fields)) continue;
      const v = derive(fields[field], f.rows);
      if (!v) return { kind: 'cannot', reason: `the ${field} proposed for ${f.file} is not a column yet` };
      for (const id of v) values.add(id);
    }
    checks.push({
      file: f.file,
      against: profiles.map((p) => p.file),
      distinct: values.size,
      missing: [...values].filter((v) => !ids.has(v)),
      wholeProfiles: profiles.every((p) => p.complete),
    });
  }
  return { kind: 'checked', checks };
}
