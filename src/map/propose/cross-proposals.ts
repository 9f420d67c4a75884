// init on several files: what one file's proposal can only learn from another's. The sales
// profiles' id made the way the deals name their owners (`{First Name|slug}-{Last Name|slug}` when
// the deals say `Alan Ross`), a `lookup` when the deals' owner column holds another column of the
// users file (`OwnerId` → User.csv `Id`), and, when no file of the run holds sales profiles, a job
// deriving them from the deals' owner column; and a number column that holds another file's ids
// (`Organização` = the organizations' `ID`) kept as text. Pure: proposals in, edits, notes and new
// jobs out.
import { basename, dirname, relative, sep } from 'node:path';
import type { Resource } from '../../contract/resources.js';
import { FILL_IN } from '../load-profile.js';
import { slug } from '../transforms/text.js';
import { derive } from './cross-files.js';
import { looksLikeCodes, namesAnId } from './ids.js';
import { squash } from './synonyms.js';
import { KIND_NAMES } from './vocabulary.js';

export interface CrossFile {
  /** The file as given. */
  file: string;
  /** Where its profile is written. */
  out: string;
  resource: Resource;
  profile: Record<string, unknown>;
  rows: readonly Record<string, string>[];
  header: readonly string[];
}

export interface DerivedJob {
  file: string;
  out: string;
  profile: Record<string, unknown>;
  reason: string;
}

type Fields = Record<string, Record<string, unknown>>;
const fieldsOf = (f: CrossFile) => f.profile.fields as Fields;
const share = (wanted: readonly string[], have: ReadonlySet<string>) => (wanted.length ? wanted.filter((w) => have.has(w)).length / wanted.length : 0);

const repeats = (rows: readonly Record<string, string>[], column: string) => {
  const values = rows.map((r) => (r[column] ?? '').trim()).filter(Boolean);
  return new Set(values).size < values.length;
};

/** The owner ids a deal or activity file's profile derives from its sample. */
function ownerIds(f: CrossFile): string[] {
  return [...new Set(derive(fieldsOf(f).ownerExternalId, f.rows) ?? [])];
}

const asked = (spec: Record<string, unknown> | undefined) => typeof spec?.const === 'string' && spec.const.startsWith(FILL_IN);

/**
 * A deal or activity file with no owner column (its owner a placeholder) that has a column whose
 * sampled values are the users file's ids (`manager_id` = users.csv's `user_id`): that column is the
 * owner, and the agent when that is asked too. Read as a custom field until then, it is one no more.
 */
export function ownersFromUserIds(files: readonly CrossFile[], notes: string[]): void {
  const users = files.filter((f) => f.resource === 'sales-profile').map((u) => ({ file: u, ids: new Set(derive(fieldsOf(u).externalId, u.rows) ?? []) }));
  for (const f of files.filter((x) => x.resource === 'deal' || x.resource === 'activity')) {
    const fields = fieldsOf(f);
    if (!asked(fields.ownerExternalId)) continue;
    const read = new Set(Object.values(fields).flatMap((s) => (typeof s.column === 'string' ? [s.column] : [])));
    for (const u of users) {
      const column = f.header.find((h) => {
        const values = [...new Set(f.rows.map((r) => (r[h] ?? '').trim()).filter(Boolean))];
        // plain numbers (a stage's order, a count) meet numeric user ids by chance: only under an id's name
        const named = namesAnId(h) || !values.every((v) => /^\d+$/.test(v));
        return !read.has(h) && named && values.length > 0 && share(values, u.ids) === 1;
      });
      if (!column) continue;
      const distinct = new Set(f.rows.map((r) => (r[column] ?? '').trim()).filter(Boolean)).size;
      const both = asked(fields.agentExternalId);
      fields.ownerExternalId = { column };
      if (both) fields.agentExternalId = { column };
      const customs = f.profile.customFields as Fields[string][] | undefined;
      if (customs) f.profile.customFields = customs.filter((c) => c.column !== column);
      notes.push(
        `${basename(f.file)}: "${column}" holds ${basename(u.file.file)}'s ids (${distinct} of ${distinct} distinct sampled values): it is the owner${both ? ' (and agent)' : ''}`,
      );
      break;
    }
  }
}

/** The users' id remade the way the owners are written, when that matches more of them. */
export function alignProfileIds(files: readonly CrossFile[], notes: string[]): void {
  const referencing = files.filter((f) => f.resource === 'deal' || f.resource === 'activity');
  for (const users of files.filter((f) => f.resource === 'sales-profile')) {
    const owners = [...new Set(referencing.flatMap(ownerIds))];
    if (!owners.length) continue;
    const fields = fieldsOf(users);
    const now = share(owners, new Set(derive(fields.externalId, users.rows) ?? []));
    if (now >= 0.5) continue;
    const first = fields['profile.firstName']?.column as string | undefined;
    const last = fields['profile.lastName']?.column as string | undefined;
    if (typeof first === 'string' && typeof last === 'string' && first !== last) {
      const ids = new Set(users.rows.map((r) => slug(`${r[first] ?? ''} ${r[last] ?? ''}`)));
      if (share(owners, ids) > now) {
        const was = fields.externalId?.column ? `"${fields.externalId.column}"` : 'nothing';
        fields.externalId = { template: `{${first}|slug}-{${last}|slug}` };
        notes.push(
          `${basename(users.file)}: externalId is {${first}|slug}-{${last}|slug} (it was ${was}): the owners elsewhere are full names' slugs ("${owners[0]}"), ${Math.round(share(owners, ids) * 100)}% of them found so`,
        );
        continue;
      }
    }
    lookupOwners(users, referencing, notes);
  }
}

/** `OwnerId` holds the users' `Id` while their externalId is another column: the owner is looked up. */
function lookupOwners(users: CrossFile, referencing: readonly CrossFile[], notes: string[]): void {
  const value = fieldsOf(users).externalId?.column;
  if (typeof value !== 'string' && !(Array.isArray(value) && value.length === 1)) return;
  const valueColumn = typeof value === 'string' ? value : (value[0] as string);
  for (const f of referencing) {
    const spec = fieldsOf(f).ownerExternalId;
    const column = spec?.column;
    // a name's slug is a guess at an id: the users' own column holding the names, beside their ids, is better
    if (typeof column !== 'string' || (spec?.transform && spec.transform !== 'slug')) continue;
    const raw = [...new Set(f.rows.map((r) => (r[column] ?? '').trim()).filter(Boolean))];
    // a key that repeats in the sample would look up two values: never proposed (init's check catches it past the sample)
    const key = users.header.find(
      (h) => h !== valueColumn && share(raw, new Set(users.rows.map((r) => (r[h] ?? '').trim()))) >= 0.8 && !repeats(users.rows, h),
    );
    if (!key) continue;
    const file = relative(dirname(f.out), users.file).split(sep).join('/');
    // read as the users' own profile reads them (MySQL's \N as empty, its escape, its delimiter)
    const reader = users.profile.reader as Record<string, unknown> | undefined;
    const lookup = { file, key, value: valueColumn, ...(reader && Object.keys(reader).length ? { reader: { ...reader } } : {}) };
    for (const field of ['ownerExternalId', 'agentExternalId']) {
      if (fieldsOf(f)[field]?.column === column) fieldsOf(f)[field] = { column, lookup };
    }
    notes.push(`${basename(f.file)}: "${column}" holds ${basename(users.file)}'s "${key}": the owner is looked up there and its "${valueColumn}" sent`);
  }
}

/** No file of the run holds sales profiles: one job per deals file deriving them from its owner column. */
export function deriveSalesProfiles(files: readonly CrossFile[], ownersOut: (deals: CrossFile) => string): DerivedJob[] {
  if (files.some((f) => f.resource === 'sales-profile')) return [];
  return files
    .filter((f) => f.resource === 'deal' && fieldsOf(f).ownerExternalId)
    .map((deals) => {
      const owner = fieldsOf(deals).ownerExternalId!;
      const column = typeof owner.column === 'string' ? owner.column : undefined;
      // names in a script slug cannot spell give no e-mail from a template over them
      const spelt = column !== undefined && deals.rows.some((r) => slug(r[column] ?? '') !== '');
      const fields: Fields = column
        ? {
            externalId: { ...owner },
            // the export holds no e-mail: one the user gives (a template over the owner), never an invented one
            email: spelt ? { template: `${FILL_IN}: e-mail, e.g. {${column}|slug}@yourcompany.com>` } : { const: `${FILL_IN}: value or column for email>` },
            // a name's last word is the last name; a word is all first name (its last name empty); a
            // code (`17`, `0055g00000AbCdE`) is nobody's name: the user gives the names
            ...(coded(deals, column)
              ? {
                  'profile.firstName': {
                    const: `${FILL_IN}: first name of each owner (${column} holds ids, not names): a value, or a lookup in your users file>`,
                  },
                  'profile.lastName': {
                    const: `${FILL_IN}: last name of each owner (${column} holds ids, not names): a value, or a lookup in your users file>`,
                  },
                }
              : { 'profile.firstName': { column, transform: 'firstName' }, 'profile.lastName': { column, transform: 'lastName' } }),
          }
        : {
            externalId: { ...owner },
            email: { const: `${FILL_IN}: e-mail of the deals' owner>` },
            'profile.firstName': { const: `${FILL_IN}: full name of the deals' owner>`, transform: 'firstName' },
            'profile.lastName': { const: `${FILL_IN}: full name of the deals' owner>`, transform: 'lastName' },
          };
      const profile = { resource: 'sales-profile', ...(deals.profile.reader ? { reader: deals.profile.reader } : {}), timeZone: 'UTC', fields };
      const from = column ? `its owner column "${column}"` : 'the owner id you fill in';
      return { file: deals.file, out: ownersOut(deals), profile, reason: `derived from ${from}: no file of the run holds sales profiles` };
    });
}

/** The deals' owner column holds codes (`17`, `V-001`), not people's names or user names: sent as they are. */
function coded(deals: CrossFile, column: string): boolean {
  const spec = fieldsOf(deals).ownerExternalId;
  if (spec?.transform) return false;
  return looksLikeCodes([...new Set(deals.rows.map((r) => (r[column] ?? '').trim()).filter(Boolean))]);
}

/** The ids a file's records carry: its externalId as proposed, and every column named like an id. */
function idsOf(f: CrossFile): Set<string> {
  const ids = new Set(derive(fieldsOf(f).externalId, f.rows) ?? []);
  for (const h of f.header.filter(namesAnId)) for (const r of f.rows) if (r[h]?.trim()) ids.add(r[h].trim());
  return ids;
}

/** `Organização`, `Associated Company`: a header naming the other file's kind or file (small counts meet small ids by chance). */
function namesFile(column: string, f: CrossFile): boolean {
  const words = new Set(
    [
      ...KIND_NAMES[f.resource],
      ...basename(f.file)
        .replace(/\.[^.]+$/, '')
        .split(/[^\p{L}\p{N}]+/u),
    ]
      .map(squash)
      .filter((w) => w.length > 2),
  );
  return column.split(/[^\p{L}\p{N}]+/u).some((w) => words.has(squash(w)));
}

/**
 * A custom field proposed as a number whose header names another file's kind (`Organização`) and
 * whose values are (four in five) that file's ids refers to it: its type is string.
 */
export function keepReferencesText(files: readonly CrossFile[], notes: string[]): void {
  const ids = files.map((f) => ({ file: f.file, ids: idsOf(f), of: f }));
  for (const f of files) {
    for (const spec of (f.profile.customFields ?? []) as Record<string, unknown>[]) {
      const column = spec.column;
      if (spec.type !== 'number' || typeof column !== 'string') continue;
      const values = [...new Set(f.rows.map((r) => (r[column] ?? '').trim()).filter(Boolean))];
      const found = (o: (typeof ids)[number]) => values.filter((v) => o.ids.has(v)).length;
      const other = values.length ? ids.find((o) => o.file !== f.file && namesFile(column, o.of) && found(o) * 5 >= values.length * 4) : undefined;
      if (!other) continue;
      spec.type = 'string';
      notes.push(
        `${basename(f.file)}: "${column}" holds ids of ${basename(other.file)} (${found(other)} of ${values.length} sampled values): a text custom field, not a number`,
      );
    }
  }
}
