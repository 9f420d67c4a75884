// Splits a JSON document into the elements of its items array without parsing the whole file:
// a byte-level scanner tracks strings and depth across chunks, and each element is JSON.parsed alone.
// The items are the top-level array, or the array at `path` (the reader.root pointer's tokens from
// the top: an object's key, or an array's index as RFC 6901 writes it, `/pages/0/items`). Without a
// path it surveys instead: which top-level keys hold arrays (json-root.ts chooses among them),
// reading no element.

import { describe, JsonShapeError, type TopArray } from './json-shape.js';

export type OnItem = (text: string, line: number) => void;

type State =
  | 'start' // before the top-level value
  | 'key' // in the top-level object, before a key or `}`
  | 'after-key' // before `:`
  | 'value' // after `:`, before the value
  | 'skip' // inside another top-level value we do not need
  | 'after-value' // in the top-level object, before `,` or `}`
  | 'nav-first' // in an array on the way to the items: after `[`, an element or `]`
  | 'nav-element' // after `,` in it: an element
  | 'nav-after' // after an element in it: `,` or `]`
  | 'first' // after `[`: an element or `]`
  | 'element' // after `,`: an element (a `]` here is a trailing comma)
  | 'after-element' // before `,` or `]`
  | 'peek' // survey: after a top-level array's `[`, before its first element
  | 'in-element'
  | 'done';

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

export class JsonItemSplitter {
  private state: State = 'start';
  private line = 1;
  private sawItems = false;
  /** The containers entered along `path` (the top-level one first), and in an array the element's index. */
  private readonly way: Array<{ array: boolean; index: number }> = [];
  /** Survey: the top-level arrays seen, and whether the file turned out to be a top-level array. */
  readonly arrays: TopArray[] = [];
  topIsArray = false;
  private key: number[] = [];
  private inKey = false;
  // the element or skipped value being scanned
  private depth = 0;
  private inString = false;
  private escaped = false;
  private pieces: Buffer[] = [];
  private size = 0;
  private startLine = 0;

  /** `path` undefined: survey. `pointer`: the reader.root text, for messages. */
  constructor(
    private readonly maxItemBytes: number,
    private readonly path?: readonly string[],
    private readonly pointer?: string,
  ) {}

  feed(buf: Buffer, onItem: OnItem): void {
    let start = this.state === 'in-element' ? 0 : -1;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i]!;
      if (this.state === 'skip') {
        const ends = this.scan(b);
        if (ends === 'before') {
          this.state = this.afterValue();
          i--; // the `,`, `}` or space after a scalar belongs to the container
        } else {
          if (ends === 'after') this.state = this.afterValue();
          if (b === 0x0a) this.line++;
        }
        continue;
      }
      if (this.state === 'in-element') {
        const ends = this.scan(b);
        if (ends === 'after') {
          this.emit(buf.subarray(start, i + 1), onItem);
          start = -1;
          this.state = 'after-element';
        } else if (ends === 'before') {
          this.emit(buf.subarray(start, i), onItem);
          start = -1;
          this.state = 'after-element';
          i--; // re-read the `,`, `]` or space after a scalar
          continue;
        }
        if (b === 0x0a) this.line++;
        continue;
      }
      if (this.inKey) {
        if (this.escaped) this.escaped = false;
        else if (b === 0x5c) this.escaped = true;
        else if (b === 0x22) {
          this.inKey = false;
          this.state = 'after-key';
          continue;
        }
        this.key.push(b);
        continue;
      }
      if (WS.has(b)) {
        if (b === 0x0a) this.line++;
        continue;
      }
      // a structural byte: the byte that begins an element, or one to read again in the new state, goes back
      const next = this.structural(b);
      if (next === 'element') start = i;
      if (next !== undefined) i--;
    }
    if (this.state === 'in-element' && start >= 0) this.keep(buf.subarray(start));
  }

  /** The state after a byte outside strings and elements; 'again' or 'element' when the byte is read again in it. */
  private structural(b: number): 'again' | 'element' | undefined {
    switch (this.state) {
      case 'start':
        return this.top(b);
      case 'key':
        if (b === 0x22) {
          this.inKey = true;
          this.key = [];
        } else if (b === 0x7d) this.closeObject();
        else throw this.shape(`expected a key in double quotes, found ${describe(b)}`);
        break;
      case 'after-key':
        if (b !== 0x3a) throw this.shape(`expected ":" after a key, found ${describe(b)}`);
        this.state = 'value';
        break;
      case 'value':
        return this.value(b);
      case 'peek':
        this.arrays.push({ key: this.keyText(), first: b === 0x7b ? 'object' : b === 0x5d ? 'empty' : 'other' });
        return this.skip(1);
      case 'after-value':
        if (b === 0x2c) this.state = 'key';
        else if (b === 0x7d) this.closeObject();
        else throw this.shape(`expected "," or "}" in the object, found ${describe(b)}`);
        break;
      case 'first':
      case 'element':
        if (b === 0x5d) {
          if (this.state === 'element') throw this.shape('trailing comma before "]" (JSON allows none)');
          this.closeArray();
          break;
        }
        if (b === 0x2c) throw this.shape('an empty element (two commas in a row)');
        this.state = 'in-element';
        this.startLine = this.line;
        this.beginScan();
        return 'element'; // scan the first byte of the element as part of it
      case 'nav-first':
      case 'nav-element':
        return this.navElement(b);
      case 'nav-after':
        if (b === 0x2c) {
          this.way[this.way.length - 1]!.index++;
          this.state = 'nav-element';
        } else if (b === 0x5d) this.leave();
        else throw this.shape(`expected "," or "]" in the array, found ${describe(b)}`);
        break;
      case 'after-element':
        if (b === 0x2c) this.state = 'element';
        else if (b === 0x5d) this.closeArray();
        else throw this.shape(`expected "," or "]" between items, found ${describe(b)}`);
        break;
      case 'done':
        throw this.shape(`unexpected ${describe(b)} after the end of the JSON`);
    }
    return undefined;
  }

  /** Checks the document ended where it should. */
  end(): void {
    if (this.state !== 'done') {
      throw this.shape(this.state === 'start' ? 'no JSON value in the file' : 'the file ends before the JSON is complete (missing "]" or "}")');
    }
    if (this.path && this.path.length > 0 && !this.sawItems) throw new JsonShapeError(`reader.root ${this.quoted()} names nothing in the file`, undefined);
  }

  /** The top-level value's first byte. */
  private top(b: number): 'again' | undefined {
    if (b === 0x5b) {
      if (this.path === undefined) this.topIsArray = true;
      else if (this.path.length > 0) return this.enter(b, undefined);
      this.state = 'first';
    } else if (b === 0x7b) {
      if (this.path?.length === 0) throw this.shape(`reader.root "": the file is an object, not an array`);
      this.way.push({ array: false, index: 0 });
      this.state = 'key';
    } else throw this.shape(`expected an array of items or an object holding one, found ${describe(b)}`);
    return undefined;
  }

  /** A value in an object on the way: the items, an object to enter, or one to pass over. */
  private value(b: number): 'again' | undefined {
    const key = this.keyText();
    if (this.path === undefined) {
      if (b === 0x5b) {
        this.state = 'peek';
        return undefined;
      }
      if (key === 'items') throw this.shape(`"items" must be an array, found ${describe(b)}`);
      return this.skip(0);
    }
    if (key !== this.path[this.way.length - 1]) return this.skip(0);
    return this.enter(b, key);
  }

  /** An element of an array on the way: the one the pointer's index names is entered, the others passed over. */
  private navElement(b: number): 'again' | undefined {
    if (b === 0x5d) {
      if (this.state === 'nav-element') throw this.shape('trailing comma before "]" (JSON allows none)');
      this.leave();
      return undefined;
    }
    if (b === 0x2c) throw this.shape('an empty element (two commas in a row)');
    const at = this.way[this.way.length - 1]!;
    if (String(at.index) !== this.path![this.way.length - 1]) return this.skip(0);
    return this.enter(b, String(at.index));
  }

  /**
   * The value the pointer's next token names (`name`: its key or index; undefined for the top-level
   * array): the items when it is the last token, else an object or array to go into.
   */
  private enter(b: number, name: string | undefined): undefined {
    const path = this.path!;
    const token = this.way.length; // the token the value's own content is matched against
    const last = token === path.length;
    if (last && b === 0x5b) {
      this.sawItems = true;
      this.state = 'first';
      return undefined;
    }
    if (!last && b === 0x7b) {
      this.way.push({ array: false, index: 0 });
      this.state = 'key';
      return undefined;
    }
    if (!last && b === 0x5b) {
      const index = path[token]!;
      const where = name === undefined ? 'the file' : `"${name}"`;
      // RFC 6901: an index is 0 or digits without a leading zero
      if (!/^(0|[1-9][0-9]*)$/.test(index))
        throw this.shape(
          name === undefined
            ? `reader.root ${this.quoted()}: the file is an array, not an object ("${index}" is no index into it)`
            : `reader.root ${this.quoted()}: ${where} is an array, and "${index}" is no index into it`,
        );
      this.way.push({ array: true, index: 0 });
      this.state = 'nav-first';
      return undefined;
    }
    throw this.shape(`reader.root ${this.quoted()} is ${last || name === undefined ? describe(b) : `${describe(b)} at "${name}"`}, not an array of items`);
  }

  /** After a value inside the container the path is in. */
  private afterValue(): State {
    return this.way[this.way.length - 1]?.array === true ? 'nav-after' : 'after-value';
  }

  /** Out of a container on the way (its `}` or `]`). */
  private leave(): void {
    this.way.pop();
    this.state = this.way.length === 0 ? 'done' : this.afterValue();
  }

  /** Passes over a value; its first byte is scanned again as part of it. */
  private skip(depth: number): 'again' {
    this.state = 'skip';
    this.beginScan();
    this.depth = depth;
    return 'again';
  }

  private closeObject(): void {
    if (this.path === undefined) this.state = 'done';
    else this.leave();
  }

  private closeArray(): void {
    this.state = this.way.length === 0 ? 'done' : this.afterValue();
  }
  private keyText(): string {
    const raw = Buffer.from(this.key).toString('utf8');
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return raw;
    }
  }

  private quoted(): string {
    return JSON.stringify(this.pointer ?? '');
  }

  private beginScan(): void {
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.pieces = [];
    this.size = 0;
  }

  /** One byte of a value: 'after' when it ends with this byte, 'before' when this byte follows its end. */
  private scan(b: number): 'after' | 'before' | undefined {
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

  private keep(piece: Buffer): void {
    this.size += piece.length;
    if (this.size > this.maxItemBytes) {
      throw new JsonShapeError(`the item starting on this line is over ${this.maxItemBytes} bytes: probably a string that is never closed`, this.startLine);
    }
    this.pieces.push(Buffer.from(piece)); // copy: the chunk's memory is reused by the stream
  }

  private emit(last: Buffer, onItem: OnItem): void {
    const text = this.pieces.length === 0 ? last.toString('utf8') : Buffer.concat([...this.pieces, last]).toString('utf8');
    this.pieces = [];
    this.size = 0;
    onItem(text, this.startLine);
  }

  private shape(message: string): JsonShapeError {
    return new JsonShapeError(message, this.line);
  }
}
