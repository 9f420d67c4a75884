// JSON.parse silently rounds integers past 2^53 (ids from ERPs often are), reads 1e400 as Infinity
// and 1e-400 as 0: find such numbers in the text first.

/** What can go wrong needs 16 digits in a row or an exponent of 3 digits: the common case costs one scan. */
const LONG_DIGITS = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

export interface UnsafeNumber {
  token: string;
  index: number;
  /** integer: past 2^53; overflow: beyond a double (Infinity); underflow: not 0, yet read as 0. */
  kind: 'integer' | 'overflow' | 'underflow';
}

/** The first number literal outside strings that a JS number cannot hold, if any. */
export function findUnsafeInteger(json: string): UnsafeNumber | undefined {
  if (!LONG_DIGITS.test(json)) return undefined;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(json);
      if (!match) continue;
      const token = match[0];
      const value = Number(token);
      if (!Number.isFinite(value)) return { token, index: i, kind: 'overflow' };
      // a zero read from digits that are not all zero
      if (value === 0 && /[1-9]/.test(token.replace(/[eE].*$/, ''))) return { token, index: i, kind: 'underflow' };
      if (match[1] === undefined && match[2] === undefined && token.replace('-', '').length >= 16) {
        if (!Number.isSafeInteger(value)) return { token, index: i, kind: 'integer' };
      }
      i += token.length - 1;
    }
  }
  return undefined;
}

/** The reason an item with such a number is unreadable; `line` is where the item starts. */
export function unsafeIntegerReason(json: string, found: UnsafeNumber, line: number): string {
  const token = found.token;
  for (let i = 0; i < found.index; i++) if (json.charCodeAt(i) === 10) line++;
  if (found.kind === 'overflow')
    return `number ${token} at line ${line} is too large for a number (overflow: it would be read as ${token.startsWith('-') ? '-' : ''}Infinity); quote it as a string`;
  if (found.kind === 'underflow') return `number ${token} at line ${line} is too small for a number (underflow: it would be read as 0); quote it as a string`;
  return `number ${token} at line ${line} is beyond 2^53 and would lose precision; quote it as a string`;
}

/** Line of a JSON.parse error inside `text` that starts on `line`, from the position in its message. */
export function lineOfParseError(err: unknown, text: string, line: number): number {
  const match = /position (\d+)/.exec((err as Error)?.message ?? '');
  if (!match) return line;
  const pos = Math.min(Number(match[1]), text.length);
  let n = line;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
