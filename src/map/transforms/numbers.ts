// Locale numbers as spreadsheets and ERPs write them (`1.234,56`, `$ 1,234.56`, `R$ 1.234,56`,
// `(123)`, `133,55-`) into the API's decimal string (`1234.56`). Never through a float: the digits
// the user wrote are the digits we send.
import { isCurrencyCode } from '../../contract/fields.js';
import { expandExponent } from '../../util/decimal-text.js';

export type DecimalMark = ',' | '.';
export type NumberResult = { ok: true; value: string } | { ok: false; reason: string };

// sign? currency? sign? digits-with-separators currency? trailing-sign?
// Currency: a run of non-digit, non-separator symbols or letters (`$`, `R$`, `US$`, `S/.`, `EUR`),
// accepted only when it is a known sign or an ISO-4217 code (below): `V-001`, `Lote 7` are codes.
const NUMBER = /^([-+(])?\s*(?:([^\d\s.,()+-][^\d\s()+-]*)\s*)?([-+(])?\s*([.,]?\d(?:[\d.,' \u00a0\u202f]*\d)?)\s*([^\d\s.,()+-][^\d\s()+-]*)?\s*([-)])?$/;

/**
 * The currency signs a cell may carry next to its number. Letters are a currency marker only as
 * one of these or as an upper-case ISO-4217 code (`USD`, `EUR`, `BRL`); anything else (`V`, `SKU`,
 * `Lote`, `kg`) makes the cell not a number.
 */
const CURRENCY_SIGNS: ReadonlySet<string> = new Set([
  '$',
  '€',
  '£',
  '¥',
  '￥',
  '₹',
  '₩',
  '₽',
  '₺',
  '₪',
  '₱',
  '₫',
  '฿',
  '₴',
  '₦',
  '₲',
  '₡',
  '₵',
  '¢',
  '元',
  '円',
  'R$',
  'US$',
  'U$S',
  'U$',
  'C$',
  'A$',
  'AU$',
  'CA$',
  'NZ$',
  'HK$',
  'S$',
  'NT$',
  'MX$',
  'Mex$',
  'RD$',
  'COL$',
  'CLP$',
  'ARS$',
  'UY$',
  '$U',
  'RM',
  'S/',
  'S/.',
  'Bs',
  'Bs.',
  'Bs.S',
  'Bs.F',
  'zł',
  'kr',
  'Kč',
  'Ft',
  'lei',
  'Fr.',
  'CHF',
]);
function isCurrencyMarker(text: string): boolean {
  return CURRENCY_SIGNS.has(text) || (/^[A-Z]{3}$/.test(text) && isCurrencyCode(text));
}
const GROUP_SPACES = /[' \u00a0\u202f]/g;
const DIGITS = /^\d+$/;

function fail(raw: string, why: string): NumberResult {
  return { ok: false, reason: `"${raw}" is not a number${why ? ` (${why})` : ''}` };
}

/** Splits `1.234.567` by the thousands mark and checks groups of three after the first. */
function ungroup(intPart: string, mark: string): string | undefined {
  if (!intPart.includes(mark)) return DIGITS.test(intPart) || intPart === '' ? intPart : undefined;
  const groups = intPart.split(mark);
  const [first, ...rest] = groups;
  if (!first || first.length > 3 || !DIGITS.test(first)) return undefined;
  for (const g of rest) if (g.length !== 3 || !DIGITS.test(g)) return undefined;
  return groups.join('');
}

/** Which mark is the decimal one when the setting is `auto`; undefined when a value cannot tell. */
function guessMark(num: string): DecimalMark | 'none' | undefined {
  const lastComma = num.lastIndexOf(',');
  const lastDot = num.lastIndexOf('.');
  if (lastComma < 0 && lastDot < 0) return 'none';
  if (lastComma >= 0 && lastDot >= 0) return lastComma > lastDot ? ',' : '.';
  const mark = lastComma >= 0 ? ',' : '.';
  if (num.indexOf(mark) !== num.lastIndexOf(mark)) return mark === ',' ? '.' : ','; // 1.234.567: repeated → thousands
  const after = num.length - num.lastIndexOf(mark) - 1;
  const before = num.lastIndexOf(mark);
  // `1,234` and `1.234`: a thousands group or three decimals? Only `0,500` / `,5` can tell.
  if (after === 3 && before > 0 && before <= 3 && num[0] !== '0') return undefined;
  return mark;
}

// what most cells are: digits without a leading zero, and the decimal mark at most once
const PLAIN_COMMA = /^(?:0|[1-9]\d*)(?:,\d+)?$/;
const PLAIN_DOT = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

export function parseDecimal(raw: string, decimal: DecimalMark | 'auto' = 'auto'): NumberResult {
  // the common case without the general parse below (the same value: test/map/transforms.test.ts)
  if (decimal === ',' ? PLAIN_COMMA.test(raw) : decimal === '.' && PLAIN_DOT.test(raw))
    return { ok: true, value: decimal === ',' ? raw.replace(',', '.') : raw };
  return parseAnyDecimal(raw, decimal);
}

/** The general parse: signs, currency symbols, thousands marks, `auto`. Exported for the test that holds the common case to it. */
export function parseAnyDecimal(raw: string, decimal: DecimalMark | 'auto' = 'auto'): NumberResult {
  const m = NUMBER.exec(raw.trim());
  if (!m) return fail(raw, '');
  const [, sign1, before, sign2, body = '', after, trail] = m;
  for (const marker of [before, after]) {
    if (marker !== undefined && !isCurrencyMarker(marker)) return fail(raw, `"${marker}" is not a currency sign or ISO-4217 code`);
  }
  const paren = sign1 === '(' || sign2 === '(';
  if (paren !== (trail === ')')) return fail(raw, 'unbalanced parentheses');
  const signs = [sign1, sign2, trail].filter((s) => s === '-').length;
  if (signs > 1 || (paren && signs > 0)) return fail(raw, 'more than one sign');
  const negative = paren || signs === 1;
  const num = body.replace(GROUP_SPACES, '');
  const mark = decimal === 'auto' ? guessMark(num) : decimal;
  if (mark === undefined) {
    return { ok: false, reason: `"${raw}" is ambiguous: "," and "." could each be the decimal mark; set "decimal" in the profile` };
  }
  let intPart = num;
  let fraction = '';
  if (mark !== 'none') {
    const at = num.lastIndexOf(mark);
    if (at >= 0) {
      intPart = num.slice(0, at);
      fraction = num.slice(at + 1);
      if (!DIGITS.test(fraction)) return fail(raw, `expected digits after the decimal mark "${mark}"`);
    }
  }
  const thousands = mark === ',' ? '.' : mark === '.' ? ',' : undefined;
  const digits = thousands ? ungroup(intPart, thousands) : DIGITS.test(intPart) ? intPart : undefined;
  if (digits === undefined) {
    return fail(raw, mark === 'none' ? '' : `in this profile "${mark}" is the decimal mark and "${thousands}" separates thousands`);
  }
  const whole = digits.replace(/^0+(?=\d)/, '') || '0';
  const text = fraction ? `${whole}.${fraction}` : whole;
  return { ok: true, value: negative && /[1-9]/.test(text) ? `-${text}` : text };
}

/** An integer, written with or without thousands marks; `12,00` is accepted as 12. */
export function parseInteger(raw: string, decimal: DecimalMark | 'auto' = 'auto'): NumberResult {
  const r = parseDecimal(raw, decimal);
  if (!r.ok) return r;
  const [whole, fraction = ''] = r.value.split('.');
  if (/[1-9]/.test(fraction)) return { ok: false, reason: `"${raw}" is not a whole number` };
  return { ok: true, value: whole === '-0' ? '0' : whole! };
}

/** A decimal text without sign noise: no leading zeros, no trailing fraction zeros (`-0012.500` → `-12.5`). */
function canonicalDecimal(text: string): string {
  const negative = text.startsWith('-');
  let [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  whole = whole.replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  const body = fraction ? `${whole}.${fraction}` : whole;
  return negative && body !== '0' ? `-${body}` : body;
}

/**
 * A decimal text (`-12.50`, as parseDecimal gives) as the JSON number that means exactly it, or why
 * none does: a double holds 15–17 significant digits, so `9007199254740993` would be sent as
 * `9007199254740992` and `0.1000000000000000000001` as `0.1`. Never rounded on its way to the API.
 */
export function exactNumber(text: string): { ok: true; value: number } | { ok: false; reason: string } {
  const value = Number(text);
  if (Number.isFinite(value) && canonicalDecimal(expandExponent(String(value))) === canonicalDecimal(text)) return { ok: true, value };
  return {
    ok: false,
    reason: `"${text}" cannot be sent exactly as a number: a JSON number keeps about 15 significant digits and this would arrive as ${expandExponent(String(value))}; send it as text (type "string")`,
  };
}
