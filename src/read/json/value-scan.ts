// One JSON value scanned byte by byte, across chunks: where it ends, from its strings and its depth.
// The splitter (json-splitter.ts) runs one over each item it keeps and each value it passes over.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Whether a byte is JSON whitespace. */
export const isSpace = (b: number): boolean => WS.has(b);

export class ValueScan {
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** A new value; `depth` 1 when its opening bracket was read already. */
  begin(depth = 0): void {
    this.depth = depth;
    this.inString = false;
    this.escaped = false;
  }

  /** One byte of the value: 'after' when it ends with this byte, 'before' when this byte follows its end. */
  scan(b: number): 'after' | 'before' | undefined {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) {
        this.inString = false;
        if (this.depth === 0) return 'after'; // a string element
      }
      return undefined;
    }
    if (b === 0x22) this.inString = true;
    else if (b === 0x7b || b === 0x5b) this.depth++;
    else if (b === 0x7d || b === 0x5d) {
      if (this.depth === 0) return 'before'; // `]` or `}` closing the container after a scalar
      this.depth--;
      if (this.depth === 0) return 'after';
    } else if (this.depth === 0) {
      if (b === 0x2c || WS.has(b)) return 'before';
    }
    return undefined;
  }
}
