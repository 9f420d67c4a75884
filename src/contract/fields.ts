// Field-level schemas shared by the item kinds: the spec's types with the rules we chose for
// what it leaves open (documented in the README under "The contract").
import { z } from 'zod';

/** Every record carries the identifier it has in the external system; we require it non-empty. */
export const nonBlank = (what: string) =>
  z
    .string()
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .describe(what)
    // the refine in JSON Schema: `\S` is exactly what String#trim keeps (both use ECMAScript's white space)
    .meta({ minLength: 1, pattern: '\\S' });
export const externalId = (what = 'Identifier in the external system.') => nonBlank(what);

const DECIMAL = /^-?\d+(\.\d+)?$/;
export const decimalString = (what: string) =>
  z
    .string()
    .regex(DECIMAL, { error: (iss) => `${JSON.stringify(iss.input)} is not a decimal string (digits, optional "-" and "." only)` })
    .describe(what);

/** ISO-4217 codes as this runtime knows them: never a hand-typed list. */
const CURRENCY_LIST: readonly string[] = Intl.supportedValuesOf('currency');
const CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_LIST);
export function isCurrencyCode(code: string): boolean {
  return CURRENCIES.has(code);
}
export const currencyCode = z
  .string()
  .refine(isCurrencyCode, { error: (iss) => `${JSON.stringify(iss.input)} is not an ISO-4217 currency code` })
  .describe('Currency code (ISO-4217, e.g. USD, BRL, MXN).')
  .meta({ enum: [...CURRENCY_LIST] });

// Dates: zod's ISO checks reject days that do not exist (2024-02-30). Date-times must carry an
// offset or Z so that no reader has to guess a time zone.
const isoDate = z.iso.date({ error: (iss) => `${JSON.stringify(iss.input)} is not an ISO-8601 date (YYYY-MM-DD) or date-time with offset` });
const isoDateTime = z.iso.datetime({
  offset: true,
  error: (iss) => `${JSON.stringify(iss.input)} is not an ISO-8601 date-time with offset (YYYY-MM-DDThh:mm:ssZ)`,
});
export const dateTime = (what: string) => isoDateTime.describe(what);
export const dateOrDateTime = (what: string) =>
  z.union([isoDate, isoDateTime], { error: (iss) => `${JSON.stringify(iss.input)} is not an ISO-8601 date or date-time with offset` }).describe(what);

// a missing email keeps zod's own message (undefined → default), which issues.ts reads as "is required"
export const email = z
  .email({ error: (iss) => (iss.input === undefined ? undefined : `${JSON.stringify(iss.input)} is not a valid e-mail address`) })
  .describe('E-mail address.')
  // the JSON Schema keeps zod's own pattern and no `format: email`: a validator's idea of an e-mail
  // differs from zod's (ajv-formats refuses a@b-.com, which zod accepts)
  .meta({ format: undefined });

/**
 * Enumerations the spec gives only as "values seen". Other values pass validation with a
 * warning; the lists live here once and feed both the warnings and the JSON Schema examples.
 */
export const SEEN_VALUES = {
  activityType: ['CALL', 'EMAIL', 'MEET'],
  activitySourceName: ['OUTBOUND', 'INBOUND'],
  accountType: ['COMPANY', 'CONTACT', 'CLIENT'],
  customFieldType: ['string', 'number', 'boolean'],
} as const;

export const seenValue = (list: readonly string[], what: string) =>
  nonBlank(`${what} Values seen: ${list.join(', ')}; others are accepted with a warning.`).meta({ examples: [...list] });
