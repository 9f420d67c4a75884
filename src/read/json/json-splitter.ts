// Splits a JSON document into the elements of its items array without parsing the whole file:
// a byte-level scanner tracks strings and depth across chunks, and each element is JSON.parsed alone.
// The items are the top-level array, or the array at `path` (the reader.root pointer's tokens from
// the top: an object's key, or an array's index as RFC 6901 writes it, `/pages/0/items`). Without a
// path it surveys instead: which top-level keys hold arrays (json-root.ts chooses among them),
// reading no element.

import { describe, JsonShapeError, type TopArray } from './json-shape.js';
import { PointerWay } from './pointer-way.js';
import { isSpace, ValueScan } from './value-scan.js';

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

export class JsonItemSplitter {
  private state: State = 'start';
  private line = 1;
  private sawItems = false;
  /** The containers entered along `path`, the top-level one first. */
  private readonly way: PointerWay;
  /** Survey: the top-level arrays seen, and whether the file turned out to be a top-level array. */
  readonly arrays: TopArray[] = [];
  topIsArray = false;
  private key: number[] = [];
  private inKey = false;
  private keyEscaped = false;
  // the element or skipped value being scanned
  private readonly scanner = new ValueScan();
  private pieces: Buffer[] = [];
  private size = 0;
  private startLine = 0;

  /** `path` undefined: survey. `pointer`: the reader.root text, for messages. */
  constructor(
    private readonly maxItemBytes: number,
    private readonly path?: readonly string[],
    pointer?: string,
  ) {
    this.way = new PointerWay(path, pointer);
  }

  feed(buf: Buffer, onItem: OnItem): void {
    let start = this.state === 'in-element' ? 0 : -1;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i]!;
      if (this.state === 'skip') {
        const ends = this.scanner.scan(b);
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
        const ends = this.scanner.scan(b);
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
        if (this.keyEscaped) this.keyEscaped = false;
        else if (b === 0x5c) this.keyEscaped = true;
        else if (b === 0x22) {
          this.inKey = false;
          this.state = 'after-key';
          continue;
        }
        this.key.push(b);
        continue;
      }
      if (isSpace(b)) {
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
          this.way.nextElement();
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
    if (this.path && this.path.length > 0 && !this.sawItems) throw new JsonShapeError(`reader.root ${this.way.quoted()} names nothing in the file`, undefined);
  }

  /** The top-level value's first byte. */
  private top(b: number): 'again' | undefined {
    if (b === 0x5b) {
      if (this.path === undefined) this.topIsArray = true;
      else if (this.path.length > 0) return this.enter(b, undefined);
      this.state = 'first';
    } else if (b === 0x7b) {
      if (this.path?.length === 0) throw this.shape(`reader.root "": the file is an object, not an array`);
      this.way.enterTop();
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
    if (!this.way.names(key)) return this.skip(0);
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
    const named = this.way.namedElement();
    return named === undefined ? this.skip(0) : this.enter(b, named);
  }

  /** The value the pointer's next token names (`name`: its key or index; undefined for the top-level array). */
  private enter(b: number, name: string | undefined): undefined {
    const step = this.way.enter(b, name, this.line);
    if (step === 'items') this.sawItems = true;
    this.state = step === 'items' ? 'first' : step === 'object' ? 'key' : 'nav-first';
    return undefined;
  }

  /** After a value inside the container the path is in. */
  private afterValue(): State {
    return this.way.inArray ? 'nav-after' : 'after-value';
  }

  /** Out of a container on the way (its `}` or `]`). */
  private leave(): void {
    this.state = this.way.leave() ? 'done' : this.afterValue();
  }

  /** Passes over a value; its first byte is scanned again as part of it. */
  private skip(depth: number): 'again' {
    this.state = 'skip';
    this.beginScan(depth);
    return 'again';
  }

  private closeObject(): void {
    if (this.path === undefined) this.state = 'done';
    else this.leave();
  }

  private closeArray(): void {
    this.state = this.path !== undefined && this.path.length > 0 ? this.afterValue() : 'done';
  }
  private keyText(): string {
    const raw = Buffer.from(this.key).toString('utf8');
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return raw;
    }
  }

  private beginScan(depth = 0): void {
    this.scanner.begin(depth);
    this.pieces = [];
    this.size = 0;
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
