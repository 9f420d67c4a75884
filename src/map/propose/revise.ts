// What init changes in its proposal once the proposal was tried on the data (rows/check-profile.ts):
// a field invalid in most rows takes its next candidate (another column that matched it, a value
// map, a status column), or, with none left, a placeholder that says why; a field refused only
// where its cell is empty gets a default where its kind has a neutral one (0, false), and a note
// either way; a lookup that could not load (its key repeats with two values) is taken out. Pure:
// the check's counts and the candidates in, the revised fields, candidates and notes out.
import type { LeafKind } from '../target-fields.js';
import { FILL_IN } from '../load-profile.js';
import type { Spec } from './rules.js';
import { wonStagesFound } from './won.js';

/** One field's problems over the rows checked. */
export interface CheckedField {
  /** Rows where it is invalid with its cell filled. */
  invalid: number;
  /** Rows where it is invalid because its cell is empty, and the first such line. */
  empty: number;
  firstEmptyLine?: number;
  /** The most frequent reason, as one row said it. */
  reason?: string;
  /** Rows checked whose cell is filled, when the field reads one column. */
  filled?: number;
}

export interface CheckCounts {
  /** Rows mapped and validated. */
  checked: number;
  fields: ReadonlyMap<string, CheckedField>;
  lookupsFailed: readonly { field: string; reason: string }[];
  /** Distinct cells of the fields read through an open value map, over the rows checked. */
  mapped?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Rows whose externalId an earlier row had with other content, the first one's line and id. */
  idRepeats?: { rows: number; firstLine?: number; example?: string };
}

export interface Revision {
  fields: Record<string, Spec>;
  /** The profile's custom fields, a type the data refuses made text. */
  customFields: Spec[];
  /** Each field's candidates not tried yet, best first. */
  candidates: Record<string, Spec[]>;
  changed: boolean;
  notes: string[];
  fillIn: { path: string; reason: string }[];
}

/** What a field refused where its cell is empty is sent as, when its kind has a neutral value. */
const DEFAULTS: Partial<Record<LeafKind, unknown>> = { decimal: '0', number: 0, boolean: false };

const n = (x: number) => x.toLocaleString('en-US');
const source = (s: Spec) =>
  Array.isArray(s.column)
    ? `"${s.column.join(' | ')}"`
    : typeof s.column === 'string'
      ? `"${s.column}"`
      : s.template !== undefined
        ? `template ${JSON.stringify(s.template)}`
        : 'its value';
const howMapped = (s: Spec) =>
  `${source(s)}${
    s.map
      ? ` (value map: ${
          Object.keys(s.map as object)
            .map((k) => `"${k}"`)
            .join(', ') || 'none'
        } → ${JSON.stringify(Object.values(s.map as object)[0] ?? true)}, otherwise ${JSON.stringify(s.otherwise)})`
      : ''
  }`;

export function reviseProposal(
  fields: Readonly<Record<string, Spec>>,
  candidates: Readonly<Record<string, readonly Spec[]>>,
  counts: CheckCounts,
  kindOf: (path: string) => LeafKind | undefined,
  customFields: readonly Spec[] = [],
  required: (path: string) => boolean = () => true,
): Revision {
  const out: Record<string, Spec> = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { ...v }]));
  const customs = customFields.map((c) => ({ ...c }));
  const left: Record<string, Spec[]> = Object.fromEntries(Object.entries(candidates).map(([k, v]) => [k, [...v]]));
  const notes: string[] = [];
  const fillIn: Revision['fillIn'] = [];
  let changed = false;
  const { checked } = counts;
  for (const { field, reason } of counts.lookupsFailed) {
    const lookup = out[field]?.lookup as { file?: string } | undefined;
    if (!lookup) continue;
    for (const spec of Object.values(out)) if ((spec.lookup as { file?: string } | undefined)?.file === lookup.file) delete spec.lookup;
    notes.push(`${field}: not looked up in ${lookup.file}: ${reason}; the column is sent as it is`);
    changed = true;
  }
  const repeats = counts.idRepeats;
  // an id unique in the sample that repeats further down is no id: push would refuse the repeats
  if (repeats?.rows && out.externalId) {
    const why = `${source(out.externalId)} repeats an earlier row's value in ${n(repeats.rows)} of ${n(checked)} rows checked (the first on line ${repeats.firstLine}, "${repeats.example}")`;
    const next = repeats.rows * 100 > checked ? left.externalId?.shift() : undefined;
    if (next) {
      out.externalId = next;
      const twice = customs.findIndex((x) => x.column === next.column);
      if (twice >= 0) customs.splice(twice, 1);
      notes.push(`externalId: ${why}; ${next.rowHash ? "rowHash (the row's content)" : howMapped(next)} is taken instead`);
      changed = true;
    } else notes.push(`externalId: ${why}: push sends the first row of each id and refuses the others as DUPLICATE`);
  }
  const won = wonStagesFound(out.isWon, counts.mapped?.get('isWon'));
  if (won) {
    out.isWon = won.spec;
    notes.push(won.note);
    changed = true;
  }
  for (const [field, c] of counts.fields) {
    const custom = customs.find((x) => field === `customFields.${x.key as string}`);
    // a custom field's type was guessed from the sample: a value of another type further down makes it text
    if (custom && c.invalid > 0 && (custom.type === 'number' || custom.type === 'boolean')) {
      notes.push(
        `${field}: "${custom.column as string}" is not a ${custom.type} in ${n(c.invalid)} of ${n(checked)} rows checked${c.reason ? ` (${c.reason})` : ''}: it is sent as text`,
      );
      custom.type = 'string';
      changed = true;
      continue;
    }
    const spec = out[field];
    if (!spec) continue;
    // most rows: of those where it holds a value, when it reads a column (a won date is empty in open deals)
    const of = c.filled ?? checked;
    const why = `${source(spec)} is invalid in ${n(c.invalid)} of ${n(of)} ${c.filled === undefined ? 'rows checked' : 'rows checked where it is filled'}${c.reason ? ` (${c.reason})` : ''}`;
    if (c.invalid * 2 > of) {
      const next = left[field]?.shift();
      changed = true;
      if (next) {
        out[field] = next;
        // a column that was a custom field feeds the field now, not both
        const twice = customs.findIndex((x) => x.column === next.column);
        if (twice >= 0) customs.splice(twice, 1);
        notes.push(`${field}: ${why}; ${howMapped(next)} is taken instead`);
      } else if (!required(field)) {
        // an optional field is sent without it rather than blocking every row on a placeholder
        delete out[field];
        notes.push(`${field}: ${why}; it is left out (the field is optional): map it again with a format that reads the column to send it`);
      } else {
        out[field] = { const: `${FILL_IN}: value or column for ${field}>` };
        fillIn.push({ path: `fields.${field}.const`, reason: why });
      }
      continue;
    }
    if (!c.empty || spec.default !== undefined || spec.column === undefined) continue;
    const where = `${source(spec)} is empty in ${n(c.empty)} of ${n(checked)} rows checked (the first on line ${c.firstEmptyLine})`;
    const fallback = DEFAULTS[kindOf(field) ?? 'string'];
    if (fallback === undefined) {
      notes.push(`${field}: ${where}: those rows are refused; give the field a "default" to send them`);
      continue;
    }
    out[field] = { ...spec, default: fallback };
    notes.push(`${field}: ${where}: those are sent as ${JSON.stringify(fallback)}; remove "default" to have them refused instead`);
    changed = true;
  }
  return { fields: out, customFields: customs, candidates: left, changed, notes, fillIn };
}
