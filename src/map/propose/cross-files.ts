// `init` on several files: do the deals' (and activities') owner/agent values, as their proposed
// profiles derive them, appear among the ids proposed for the sales-profile file? Checked on the
// samples init read, before anything is sent, with the mapping's own compiled values. Pure: values
// in, counts out.
import type { Resource } from '../../contract/resources.js';
import { columnResolver } from '../columns.js';
import { compileValue, type RowContext } from '../compile-value.js';
import { fieldSpec } from '../profile-schema.js';
import type { ConversionSettings } from '../transforms/index.js';
import { ZoneClock } from '../transforms/time-zone.js';

export interface ProposedFile {
  file: string;
  resource: Resource;
  profile: Record<string, unknown>;
  rows: readonly Record<string, string>[];
  /** False when the sample is not the whole file. */
  complete: boolean;
}

interface OwnerCheck {
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

/**
 * The ids a field spec gives on the sample, read by the mapping's own compiled value (so what is
 * checked is what will be sent); undefined when the spec is not a column yet (a placeholder).
 */
export function derive(spec: unknown, rows: readonly Record<string, string>[]): string[] | undefined {
  const parsed = fieldSpec.safeParse(spec);
  if (!parsed.success || (parsed.data.column === undefined && parsed.data.template === undefined)) return undefined;
  const value = compileValue(parsed.data, { field: 'id', kind: 'string', isId: true }, 'id', BY_NAME, idSettings());
  const ctx: RowContext = { file: '', line: 0, problems: [] };
  return rows.flatMap((row) => {
    const v = value(row, ctx);
    ctx.problems.length = 0;
    return typeof v === 'string' && v !== '' ? [v] : [];
  });
}

// ids are text: the number and date settings never apply to them. Made when init runs, not at start-up:
// a ZoneClock loads the time-zone data (~6 MB resident) for every command
const idSettings = (): ConversionSettings => ({ decimal: 'auto', dateFormat: 'auto', clock: new ZoneClock('UTC') });
/** Sample rows are objects by column name: every column is taken as named. */
const BY_NAME = columnResolver(undefined, '', 'proposal');

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
