// A family of date columns, one per stage (`date_entered_appointmentscheduled`,
// `date_entered_closedwon`; `Date entered "Closed Won (Sales Pipeline)"`): how HubSpot exports keep
// a deal's stage. A profile names the family by a pattern with one `*` where the stage's name is
// (`latestOf: "date_entered_*"`); the columns it matches are found here, and `stageDateFamilies`
// recognises such families in a header, for init to propose them.

/** A column of a family, and the part of its name the `*` stands for (the stage's name). */
export interface FamilyColumn {
  column: string;
  name: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The header's columns that the pattern matches, in the header's order: the text around the `*`
 * matched as a column name is (ignoring case and surrounding spaces), the `*` standing for at least
 * one character. A name twice in the header is one column (a row keeps the last of equal names).
 */
export function familyColumns(pattern: string, header: readonly string[]): FamilyColumn[] {
  const [before = '', after = ''] = pattern.trim().split('*');
  const match = new RegExp(`^\\s*${escapeRegExp(before)}(.+)${escapeRegExp(after)}\\s*$`, 'iu');
  const out: FamilyColumn[] = [];
  const seen = new Set<string>();
  for (const column of header) {
    const name = match.exec(column)?.[1]?.trim();
    if (seen.has(column) || !name) continue;
    seen.add(column);
    out.push({ column, name });
  }
  return out;
}

/** A family of stage-date columns a header holds, and the pattern a profile names it by. */
export interface StageDateFamily {
  /** For `latestOf`: `date_entered_*`, `Date entered "*"`. */
  pattern: string;
  columns: FamilyColumn[];
}

/**
 * The shapes of stage-date columns seen in exports, each giving the pattern of the family a column
 * belongs to: HubSpot's property names (`date_entered_<stage>`, `hs_date_entered_<stage>`,
 * `hs_v2_date_entered_<stage>`) and its labels (`Date entered "<stage> (<pipeline>)"`, with straight
 * or curly quotes; `Entered <stage> date`). Not `date_exited_…` nor `time_in_…`: those are not when a
 * deal reached a stage.
 */
const SHAPES: readonly ((column: string) => string | undefined)[] = [
  (c) => {
    const m = /^(.*date_entered_)\S+$/i.exec(c);
    return m ? `${m[1]}*` : undefined;
  },
  (c) => {
    const m = /^(date entered\s*)(["“”'‘’])(.+)(["“”'‘’])$/i.exec(c);
    return m ? `${m[1]}${m[2]}*${m[4]}` : undefined;
  },
  (c) => {
    const m = /^(entered\s+)(.+)(\s+date)$/i.exec(c);
    return m ? `${m[1]}*${m[3]}` : undefined;
  },
];

/**
 * The stage-date families of a header: every pattern that two or more of its columns share (one
 * column alone is no family), with those columns in the header's order; the largest family first.
 */
export function stageDateFamilies(header: readonly string[]): StageDateFamily[] {
  const patterns = new Map<string, string>();
  for (const column of header) {
    const trimmed = column.trim();
    for (const shape of SHAPES) {
      const pattern = shape(trimmed);
      if (pattern === undefined) continue;
      // one spelling per family: `Date entered "…"` and `date entered "…"` are one
      if (!patterns.has(pattern.toLowerCase())) patterns.set(pattern.toLowerCase(), pattern);
      break;
    }
  }
  return [...patterns.values()]
    .map((pattern) => ({ pattern, columns: familyColumns(pattern, header) }))
    .filter((f) => f.columns.length >= 2)
    .sort((a, b) => b.columns.length - a.columns.length);
}

/** Where the latest column of a family was, for a diagnostic: filled in by each call. */
export interface LatestAt {
  column: string | undefined;
  problem: string | undefined;
  /** The header index of the cell the text is (-1 for the stage's name): where its type letter is. */
  index: number;
}

/** A filled cell's date as milliseconds, or the reason it is not a date; `typed`: a workbook's date cell. */
export type DateOf = (text: string, typed: boolean) => number | string;

/**
 * `latestOf`: the text of the family's column with the latest date in the row — the stage's name
 * (`take: "name"`) or the cell itself (`"date"`) — or '' when none is filled. Ties go to the later
 * column (a pipeline lists its stages in order). A filled cell that is not a date is the row's
 * problem, naming that column: a stage is never chosen past a cell that could not be read.
 */
export function compileLatest(
  pattern: string,
  take: 'name' | 'date',
  header: readonly string[] | undefined,
  reader: (column: string) => (row: Record<string, string | undefined> | readonly string[]) => string | undefined,
  dateOf: DateOf,
): (row: Record<string, string | undefined> | readonly string[], at: LatestAt, types?: string) => string {
  const fixed = header && familyColumns(pattern, header).map((f) => ({ ...f, cell: reader(f.column), index: header.lastIndexOf(f.column) }));
  return (row, at, types) => {
    // JSON records: their keys are only known per record
    const family = fixed ?? familyColumns(pattern, Object.keys(row)).map((f) => ({ ...f, cell: reader(f.column), index: -1 }));
    let best: (typeof family)[number] | undefined;
    let bestText = '';
    let bestTime = Number.NEGATIVE_INFINITY;
    for (const f of family) {
      const text = (f.cell(row) ?? '').trim();
      if (text === '') continue;
      const time = dateOf(text, types !== undefined && f.index >= 0 && types[f.index] === 'd');
      if (typeof time === 'string') {
        at.column = f.column;
        at.problem = time;
        return '';
      }
      if (time >= bestTime) {
        best = f;
        bestText = text;
        bestTime = time;
      }
    }
    at.column = best?.column ?? pattern;
    at.index = best !== undefined && take === 'date' ? best.index : -1;
    if (best === undefined) return '';
    return take === 'date' ? bestText : best.name;
  };
}

type Spec = Record<string, unknown>;
/** `Closed Won (Sales Pipeline)`: HubSpot's labels name the stage and, in brackets, its pipeline. */
const WITH_PIPELINE = /^(.*\S)\s*\(([^()]+)\)$/;

/**
 * A profile's fields for a stage-date family, as init may propose them: the current stage from the
 * latest date (`latestOf`) and its date, and one history element per column, each left out where its
 * date is empty. `pipelineName` is the field for the pipeline (a `const`, or init's placeholder),
 * used unless every stage's name carries its pipeline in brackets, which are then read from it.
 */
export function stageFamilyFields(family: StageDateFamily, pipelineName: Spec): Record<string, Spec> {
  const split = family.columns.every((c) => WITH_PIPELINE.test(c.name));
  const current = (take?: 'date') => ({ latestOf: family.pattern, ...(take ? { take } : {}) });
  const fields: Record<string, Spec> = split
    ? {
        'currentStage.pipelineName': { ...current(), replace: { pattern: WITH_PIPELINE.source, with: '$2' } },
        'currentStage.value': { ...current(), replace: { pattern: WITH_PIPELINE.source, with: '$1' } },
      }
    : { 'currentStage.pipelineName': pipelineName, 'currentStage.value': current() };
  fields['currentStage.occurredAt'] = current('date');
  family.columns.forEach(({ column, name }, i) => {
    const parts = split ? WITH_PIPELINE.exec(name)! : undefined;
    fields[`stages[${i}].pipelineName`] = parts ? { const: parts[2]!.trim() } : pipelineName;
    fields[`stages[${i}].value`] = { const: parts ? parts[1]! : name };
    fields[`stages[${i}].occurredAt`] = { column, dropElementIfEmpty: true };
  });
  return fields;
}
