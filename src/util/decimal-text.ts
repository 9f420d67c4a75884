// A number's text in exponent notation (`1e+21`, `-1.5e-7`) written out as a plain decimal, for the
// places that must never show or send an exponent: a workbook's stored numbers (read/xlsx/cell-value.ts)
// and the check that a number field is sent exactly (map/transforms/numbers.ts).

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`; a text without an exponent as it is. */
export function expandExponent(text: string): string {
  if (!/e/i.test(text)) return text;
  const [mantissa = '', exp = '0'] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const unsigned = mantissa.replace(/^-/, '');
  const digits = unsigned.replace('.', '');
  const point = (unsigned.indexOf('.') + 1 || unsigned.length + 1) - 1 + Number(exp);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}
