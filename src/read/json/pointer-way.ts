// The way down a JSON document to the items array a reader.root pointer names (RFC 6901: an
// object's key, or an array's index, `/pages/0/items`): the containers entered so far, and in an
// array the index of the element being read. json-splitter.ts scans the bytes; this decides what
// a value on the way is.

import { describe, JsonShapeError } from './json-shape.js';

/** What a value the pointer names is to the splitter: the items, or a container to go into. */
type Step = 'items' | 'object' | 'array';

// RFC 6901: an index is 0, or digits without a leading zero
const INDEX = /^(0|[1-9][0-9]*)$/;

export class PointerWay {
  private readonly way: Array<{ array: boolean; index: number }> = [];

  /** `path` undefined: the survey's way (the top-level object only). `pointer`: the text, for messages. */
  constructor(
    private readonly path: readonly string[] | undefined,
    private readonly pointer: string | undefined,
  ) {}

  /** In an array on the way (rather than in an object, or outside every container). */
  get inArray(): boolean {
    return this.way[this.way.length - 1]?.array === true;
  }

  /** Into the top-level object. */
  enterTop(): void {
    this.way.push({ array: false, index: 0 });
  }

  /** Whether a key of the object on the way is the pointer's next token. */
  names(key: string): boolean {
    return key === this.path?.[this.way.length - 1];
  }

  /** The index of the array's element being read, when it is the one the pointer names. */
  namedElement(): string | undefined {
    const index = String(this.way[this.way.length - 1]!.index);
    return index === this.path?.[this.way.length - 1] ? index : undefined;
  }

  nextElement(): void {
    this.way[this.way.length - 1]!.index++;
  }

  /** Out of a container on the way; true when it was the outermost. */
  leave(): boolean {
    this.way.pop();
    return this.way.length === 0;
  }

  /**
   * The value the pointer's next token names begins with `b` (`name`: its key or index; undefined
   * for a top-level array): the items when the token is the last, else an object or array entered.
   */
  enter(b: number, name: string | undefined, line: number): Step {
    const path = this.path ?? [];
    const token = this.way.length; // the token the value's own content is matched against
    const last = token === path.length;
    if (last && b === 0x5b) return 'items';
    if (!last && b === 0x7b) {
      this.way.push({ array: false, index: 0 });
      return 'object';
    }
    if (!last && b === 0x5b) {
      const index = path[token]!;
      if (!INDEX.test(index))
        throw new JsonShapeError(
          name === undefined
            ? `reader.root ${this.quoted()}: the file is an array, not an object ("${index}" is no index into it)`
            : `reader.root ${this.quoted()}: "${name}" is an array, and "${index}" is no index into it`,
          line,
        );
      this.way.push({ array: true, index: 0 });
      return 'array';
    }
    throw new JsonShapeError(
      `reader.root ${this.quoted()} is ${last || name === undefined ? describe(b) : `${describe(b)} at "${name}"`}, not an array of items`,
      line,
    );
  }

  quoted(): string {
    return JSON.stringify(this.pointer ?? '');
  }
}
