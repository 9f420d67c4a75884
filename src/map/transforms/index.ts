// The transforms a profile can name, as functions built once per field. A text transform turns a
// string into a string; a conversion turns it into the value sent (or a reason it cannot).
import type { LeafKind } from '../target-fields.js';
import type { TextTransform, TransformName } from '../profile-schema.js';
import { isoDate, isoDateTime, parseDate, type DateFormat } from './dates.js';
import { exactNumber, parseDecimal, parseInteger, type DecimalMark } from './numbers.js';
import { remembered } from './remembered.js';
import { BOOLEAN_WORDS_HELP, parseBoolean, slug, splitName } from './text.js';
import type { ZoneClock } from './time-zone.js';

export const TEXT: Record<TextTransform, (s: string) => string> = {
  slug,
  firstName: (s) => splitName(s).firstName,
  lastName: (s) => splitName(s).lastName,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  trim: (s) => s.trim(),
};

/** A failed conversion: the reason, for the row's diagnostic. */
export class Failure {
  constructor(readonly reason: string) {}
}
export type Conversion = (s: string) => unknown;

/** A decimal text as the JSON number meaning exactly it, or the failure saying why none does. */
function asNumber(text: string): number | Failure {
  const n = exactNumber(text);
  return n.ok ? n.value : new Failure(n.reason);
}

export interface ConversionSettings {
  decimal: DecimalMark | 'auto';
  dateFormat: DateFormat;
  clock: ZoneClock;
}

/**
 * The conversion of a field: the one its transform list ends with, else the one its target type
 * needs (a decimal string for `amount.value`, a boolean for `isWon`, ISO dates for dates).
 * `number` sends a decimal string to string fields and a JSON number to number fields.
 */
export function conversionFor(name: TransformName | undefined, kind: LeafKind, s: ConversionSettings): Conversion | undefined {
  const wantsNumber = kind === 'number';
  switch (name ?? defaultConversion(kind)) {
    case 'number':
      return (v) => {
        const r = parseDecimal(v, s.decimal);
        return r.ok ? (wantsNumber ? asNumber(r.value) : r.value) : new Failure(r.reason);
      };
    case 'integer':
      return (v) => {
        const r = parseInteger(v, s.decimal);
        return r.ok ? (wantsNumber ? asNumber(r.value) : r.value) : new Failure(r.reason);
      };
    case 'boolean':
      return (v) => parseBoolean(v) ?? new Failure(`"${v}" is not a yes/no value (${BOOLEAN_WORDS_HELP}); add a "map"`);
    // an export has far fewer distinct dates than rows: each converted once (the zone's offset too)
    case 'date':
      return remembered((v) => {
        const r = parseDate(v, s.dateFormat);
        return r.ok ? isoDate(r.value) : new Failure(r.reason);
      });
    case 'datetime':
      return remembered((v) => {
        const r = parseDate(v, s.dateFormat);
        return r.ok ? isoDateTime(r.value, s.clock) : new Failure(r.reason);
      });
    case 'dateOrDateTime':
      return remembered((v) => {
        const r = parseDate(v, s.dateFormat);
        if (!r.ok) return new Failure(r.reason);
        return r.value.hasTime ? isoDateTime(r.value, s.clock) : isoDate(r.value);
      });
    default:
      return undefined; // strings stay as they are
  }
}

function defaultConversion(kind: LeafKind): TransformName | 'dateOrDateTime' | undefined {
  switch (kind) {
    case 'decimal':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'dateOrDateTime':
      return 'dateOrDateTime';
    default:
      return undefined;
  }
}
