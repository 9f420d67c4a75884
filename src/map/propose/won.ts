// What init proposes as a deal's isWon, from the export's own words: a yes/no column, a status
// column (`Won/Lost/Open`, `Ganho/Perdido/Aberto`, HubSpot's `closedwon`) with its whole value map,
// won-looking stage values, or a won date (`Ganho em`, `Won time`, `Fecha de ganado`) read as
// "filled is won": `{ "map": {}, "otherwise": true, "default": false }`. Pure: the sample in, the
// field and a note out.
import type { ColumnFacts } from './ids.js';
import { guessDateFormat } from './guess.js';
import { WON_STAGE, squash } from './synonyms.js';
import { booleanMap, dealStatusMap } from './value-maps.js';
import { WON_DATE_HEADERS } from './vocabulary.js';

interface WonContext {
  fields: Record<string, Record<string, unknown>>;
  header: readonly string[];
  facts: (column: string) => ColumnFacts;
  notes: string[];
  /** Sampled rows. */
  rows: number;
}

const STATUS = new Set(['status', 'estado', 'situacion', 'situacao', 'statecode', 'state', 'dealstatus', 'statusdonegocio', 'estadodelnegocio']);
const WON_DATE = new Set(WON_DATE_HEADERS.map(squash));

/**
 * A won flag from the export's own words: a yes/no column (`IsWon`, `1`/empty), else a status column
 * (`Won/Lost/Open`, `Ganho/Perdido/Aberto`, `closedwon/closedlost`) with its whole value map, else
 * won-looking values of the stage, else a won date (`Ganho em`, `Won time`: filled is won).
 */
export function wonRule(c: WonContext): void {
  const { fields, facts } = c;
  const flag = fields.isWon?.column as string | undefined;
  let wonDate: string | undefined;
  if (flag) {
    if (yesNoFlag(c, flag)) return;
    // not yes/no (`Ganho em` holds dates, and its name contains "ganho"): a won date at most
    delete fields.isWon;
    if (guessDateFormat(facts(flag).values)) wonDate = flag;
  }
  if (fields.isWon) return;
  if (statusColumn(c) || wonStage(c)) return;
  // `Negócio - Ganho em`, `Deal - Won time`: Pipedrive names each column after its object
  wonDate ??= c.header.find((h) => [...WON_DATE].some((w) => squash(h).endsWith(w)));
  if (wonDate) {
    fields.isWon = { column: wonDate, map: {}, otherwise: true, default: false };
    c.notes.push(`isWon: "${wonDate}" is the date a deal was won: a deal with one is won, one without is not`);
    return;
  }
  const stage = fields['currentStage.value']?.column as string | undefined;
  if (!stage) return;
  fields.isWon = { column: stage, map: {}, otherwise: false };
  c.notes.push(`isWon: from "${stage}": no value in the sample means won; add the won stages to the map`);
}

/** `1`/empty, `true`/`false`, `Sí`/`No`: the flag as it is, empty cells false. */
function yesNoFlag({ fields, facts, notes, rows }: WonContext, flag: string): boolean {
  const f = facts(flag);
  const map = booleanMap(f.values);
  if (!map) return false;
  if (f.empty > 0) {
    fields.isWon = { column: flag, map, default: false };
    const shown = Object.keys(map).map((k) => `"${k}"`);
    notes.push(
      `isWon: "${flag}" holds ${shown.join(' or ')} or is empty (empty in ${f.empty} of ${rows} sampled rows): ${shown.join(', ')} is ${map[Object.keys(map)[0]!]}, empty is false`,
    );
  }
  return true;
}

/** A column whose every value is a deal status, one of them won or lost: its whole map, so a new status is a row error, never a guess. */
function statusColumn({ fields, header, facts, notes }: WonContext): boolean {
  const stage = fields['currentStage.value']?.column as string | undefined;
  const candidates = [...header.filter((h) => h !== stage && STATUS.has(squash(h))), ...header.filter((h) => h !== stage && !STATUS.has(squash(h)))];
  for (const column of stage ? [...candidates, stage] : candidates) {
    const map = dealStatusMap(facts(column).values);
    if (!map) continue;
    fields.isWon = { column, map };
    const won = Object.keys(map).filter((k) => map[k]);
    const not = Object.keys(map).filter((k) => !map[k]);
    const list = (l: string[]) => l.map((k) => `"${k}"`).join(', ');
    notes.push(
      `isWon: from the status "${column}": ${won.length ? `${list(won)} is won` : 'no won value in the sample'}${not.length ? `, ${list(not)} not` : ''}; a value not in the map is a row error until you add it`,
    );
    return true;
  }
  return false;
}

/** Won-looking values of the stage (or of a column named like a status): those are won, any other value is not. */
function wonStage({ fields, header, facts, notes }: WonContext): boolean {
  const stage = fields['currentStage.value']?.column as string | undefined;
  const candidates = [stage, ...header.filter((h) => h !== stage && STATUS.has(squash(h)))].filter((h): h is string => h !== undefined);
  for (const column of candidates) {
    const won = [...new Set(facts(column).values.filter((v) => WON_STAGE.test(v)))];
    if (!won.length) continue;
    fields.isWon = { column, map: Object.fromEntries(won.map((w) => [w, true])), otherwise: false };
    notes.push(`isWon: from "${column}": ${won.map((w) => `"${w}"`).join(', ')} means won; add other won stages to the map`);
    return true;
  }
  return false;
}

/**
 * A stage-read isWon (`otherwise: false`) revised from the stage's values over the whole file: won-
 * looking values the sample did not hold (Bitrix24's `C6:WON` on line 4,000) join the map. Undefined
 * when there are none.
 */
export function wonStagesFound(spec: Record<string, unknown> | undefined, values: ReadonlySet<string> | undefined) {
  if (spec?.otherwise !== false || typeof spec.column !== 'string' || !values) return undefined;
  const map = (spec.map ?? {}) as Record<string, unknown>;
  const found = [...values].filter((v) => !(v in map) && WON_STAGE.test(v));
  if (!found.length) return undefined;
  const others = [...values].filter((v) => !(v in map) && !found.includes(v)).length;
  const shown = found.map((v) => `"${v}"`).join(', ');
  return {
    spec: { ...spec, map: { ...map, ...Object.fromEntries(found.map((v) => [v, true])) } },
    note: `isWon: from "${spec.column}": ${shown} found beyond the sample means won; the other ${others} value(s) of the column are read as not won: add any that mean won to the map`,
  };
}
