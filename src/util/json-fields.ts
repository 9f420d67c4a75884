// Some top-level fields of a JSON object whose text arrives in chunks: every other value is skipped
// byte by byte without being kept, so a document whose rows fill hundreds of megabytes costs only
// the fields asked for (`batch-sync history` reads a report's counts, not its rows). Only the kept
// values are parsed, by JSON.parse; the skipped text is followed for strings and nesting only.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class TopLevelFields {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a key (after `{` or `,`), not a value. */
  private expectKey = false;
  private key: Buffer[] | undefined;
  private lastKey = '';
  private value: Buffer[] | undefined;
  private valueBytes = 0;
  private readonly kept = new Map<string, Buffer>();

  constructor(
    private readonly wanted: ReadonlySet<string>,
    /** A kept value longer than this fails the document (a hostile or broken one). */
    private readonly maxValueBytes: number,
  ) {}

  feed(chunk: Buffer): void {
    let keyFrom = this.key ? 0 : -1;
    let valueFrom = this.value ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (keyFrom >= 0) {
            this.key!.push(chunk.subarray(keyFrom, i + 1));
            this.lastKey = JSON.parse(Buffer.concat(this.key!).toString('utf8')) as string;
            this.key = undefined;
            keyFrom = -1;
          }
        }
        continue;
      }
      if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          keyFrom = i;
        }
      } else if (b === 0x7b || b === 0x5b) {
        if (this.depth === 0 && b === 0x7b) this.expectKey = true;
        this.depth++;
      } else if (b === 0x7d || b === 0x5d) {
        this.depth--;
        if (this.depth === 0 && valueFrom >= 0) valueFrom = this.endValue(chunk, valueFrom, i);
      } else if (this.depth === 1 && b === 0x3a) {
        this.expectKey = false;
        if (this.wanted.has(this.lastKey)) {
          this.value = [];
          this.valueBytes = 0;
          valueFrom = i + 1;
        }
      } else if (this.depth === 1 && b === 0x2c) {
        this.expectKey = true;
        if (valueFrom >= 0) valueFrom = this.endValue(chunk, valueFrom, i);
      }
    }
    if (keyFrom >= 0) this.key!.push(Buffer.from(chunk.subarray(keyFrom)));
    if (valueFrom >= 0) this.keep(chunk.subarray(valueFrom));
  }

  private keep(piece: Buffer): void {
    this.valueBytes += piece.length;
    if (this.valueBytes > this.maxValueBytes) throw new Error(`its "${this.lastKey}" is over ${this.maxValueBytes} bytes`);
    // copied: the chunk's buffer is reused for the next read
    this.value!.push(Buffer.from(piece));
  }

  private endValue(chunk: Buffer, from: number, at: number): number {
    this.keep(chunk.subarray(from, at));
    this.kept.set(this.lastKey, Buffer.concat(this.value!));
    this.value = undefined;
    return -1;
  }

  /** The fields found, parsed; throws when a kept value is not JSON or the document did not end. */
  result(): Record<string, unknown> {
    if (this.depth !== 0 || this.inString) throw new Error('the document is cut short');
    return Object.fromEntries([...this.kept].map(([key, bytes]) => [key, JSON.parse(bytes.toString('utf8'))]));
  }
}
