// A JSON record that holds a key twice (`{"externalId":"A1", …, "externalId":"A2"}`): JSON.parse keeps
// the last without a word. Read as a repeated header name is: the first copy keeps the key, the
// later ones become `key (2)`, `key (3)` (read/repeated-names.ts), at any depth, and one warning per
// file names the first such record, its line and the key, and how many records repeat keys.

import { shortList } from '../../shorten.js';
import type { SourceWarning } from '../types.js';
import { uniqueNames } from '../repeated-names.js';

/** Whitespace JSON allows between a key and its colon. */
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * A bound on the keys in `text`: each key ends with a quote before its colon; a `\":` inside a string
 * counts too, so an item whose parsed value holds as many keys as this repeats none.
 */
function quotedColons(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    while (j >= 0 && isSpace(text.charCodeAt(j))) j--;
    if (j >= 0 && text.charCodeAt(j) === 34) n++;
  }
  return n;
}

/** The keys of a parsed value at every depth; a loop, not recursion: a record may nest deeply. */
function keyCount(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const e of v) if (e !== null && typeof e === 'object') stack.push(e);
      continue;
    }
    // for…in: a JSON.parse object has own keys only, and it costs half of Object.keys
    for (const k in v) {
      n++;
      const e = (v as Record<string, unknown>)[k];
      if (e !== null && typeof e === 'object') stack.push(e);
    }
  }
  return n;
}

interface Edit {
  start: number;
  end: number;
  /** The later copy's new key, and the key's place (`amount.value`, `lines[].sku`). */
  name: string;
  path: string;
}

interface Frame {
  object: boolean;
  path: string;
  keys: { name: string; start: number; end: number }[];
  expectKey: boolean;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The index just past the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === 92) j += 2;
    else if (c === 34 || Number.isNaN(c)) return j + 1;
    else j++;
  }
}

/** Each later copy of a key in the (valid) JSON text, in the order of the text. */
function repeatedKeyEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  const stack: Frame[] = [];
  const close = (frame: Frame | undefined) => {
    if (!frame?.object || frame.keys.length < 2) return;
    const { renamed } = uniqueNames(frame.keys.map((k) => k.name));
    for (const r of renamed) edits.push({ ...frame.keys[r.index]!, name: r.to, path: join(frame.path, r.from) });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 34) {
      const end = stringEnd(text, i);
      if (top?.object && top.expectKey) {
        top.keys.push({ name: JSON.parse(text.slice(i, end)) as string, start: i, end });
        top.expectKey = false;
      }
      i = end - 1;
    } else if (c === 123 || c === 91) {
      const path = !top ? '' : top.object ? join(top.path, top.keys[top.keys.length - 1]?.name ?? '') : `${top.path}[]`;
      stack.push({ object: c === 123, path, keys: [], expectKey: true });
    } else if (c === 125 || c === 93) close(stack.pop());
    else if (c === 44 && top?.object) top.expectKey = true;
  }
  return edits.sort((a, b) => a.start - b.start);
}

/** The text with each edit's key replaced by its new name. */
function rewrite(text: string, edits: readonly Edit[]): string {
  let out = '';
  let from = 0;
  for (const e of edits) {
    out += text.slice(from, e.start) + JSON.stringify(e.name);
    from = e.end;
  }
  return out + text.slice(from);
}

const LISTED_KEYS = 20;

/** A file's records with repeated keys: each read with both copies, one warning for the file. */
export class RepeatedKeys {
  private warning: SourceWarning | undefined;
  private first = '';
  private records = 0;
  /** The keys named in the warning; past LISTED_KEYS, only that there are more. */
  private readonly paths = new Set<string>();
  private unlisted = false;

  constructor(
    private readonly file: string,
    private readonly warnings: SourceWarning[],
  ) {}

  /** `item` parsed from `text`, or, when a key repeats in it, the text parsed again with the later copies renamed. */
  read(text: string, item: unknown, line: number): unknown {
    if (item === null || typeof item !== 'object' || quotedColons(text) <= keyCount(item)) return item;
    const edits = repeatedKeyEdits(text);
    if (edits.length === 0) return item;
    this.tell(edits, line);
    return JSON.parse(rewrite(text, edits));
  }

  private tell(edits: readonly Edit[], line: number): void {
    this.records++;
    for (const e of edits) if (this.paths.size < LISTED_KEYS) this.paths.add(e.path);
    if (edits.some((e) => !this.paths.has(e.path))) this.unlisted = true;
    if (!this.warning) {
      const e = edits[0]!;
      this.first = `the record on line ${line} repeats the key ${JSON.stringify(e.path)}: its later copy is read as ${JSON.stringify(e.name)} (a JSON parser keeps only the last)`;
      this.warning = { file: this.file, line, message: this.first };
      this.warnings.push(this.warning);
    }
    // one warning for the file, kept up to date as records are read (reports take it at the end)
    if (this.records > 1 || this.paths.size > 1) {
      const keys = shortList(
        [...this.paths].map((p) => JSON.stringify(p)),
        200,
        ', ',
      );
      const more = this.unlisted ? ' and others' : '';
      this.warning.message = `${this.first}; ${this.records === 1 ? '1 record repeats' : `${this.records} records repeat`} keys: ${keys}${more}`;
    }
  }
}
