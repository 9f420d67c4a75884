// What the JSON reader's scanner reports: a file whose structure is not what it expected, the
// top-level arrays it surveyed, and a byte named for a message.

export class JsonShapeError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
  }
}

/** A top-level key holding an array, and what its first element is. */
export interface TopArray {
  key: string;
  first: 'object' | 'empty' | 'other';
}

export function describe(b: number): string {
  if (b === 0x22) return 'a string';
  if (b === 0x2d || (b >= 0x30 && b <= 0x39)) return 'a number';
  if (b === 0x74 || b === 0x66) return 'a boolean';
  if (b === 0x6e) return 'null';
  if (b === 0x5b) return 'an array';
  if (b === 0x7b) return 'an object';
  return JSON.stringify(String.fromCharCode(b));
}
