// JSON.parse silently rounds integers past 2^53 (ids from ERPs often are): find them in the text first.

const LONG_DIGITS = /\d{16}/;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** The first integer literal outside strings that a JS number cannot hold exactly, if any. */
export function findUnsafeInteger(json: string): { token: string; index: number } | undefined {
  if (!LONG_DIGITS.test(json)) return undefined; // the common case costs one regex scan
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
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
      if (match[1] === undefined && match[2] === undefined && token.replace('-', '').length >= 16) {
        if (!Number.isSafeInteger(Number(token))) return { token, index: i };
      }
      i += token.length - 1;
    }
  }
  return undefined;
}

/** The reason an item with such a number is unreadable; `line` is where the item starts. */
export function unsafeIntegerReason(json: string, found: { token: string; index: number }, line: number): string {
  const token = found.token;
  for (let i = 0; i < found.index; i++) if (json.charCodeAt(i) === 10) line++;
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
