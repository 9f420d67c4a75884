// The workbook's shared string table (usually xl/sharedStrings.xml): cells of type `s` hold an index into
// it. It is a separate part that must be read before the sheet, and on a sheet of unique texts it
// holds every one of them, so it is kept compact and off the JS heap: the strings' UTF-8 bytes one
// after another in slabs of 1 MiB, and where each ends in a Uint32Array; each is decoded when read.
// Slabs, not one buffer grown by doubling: a grown buffer held up to twice the text, and while it
// grew the old one as well (169 MB of text peaked at 389 MB); slabs are never copied, and each
// wastes at most the start of a string that did not fit at its end (BENCHMARKS.md, issue 34).
import { grownUint32 } from '../../util/outgrown.js';
import type { WorkbookZip } from './workbook-zip.js';
import { readXml } from './xml-stream.js';

/** The largest shared string table read: its UTF-8 text is what stays in memory for the whole read. */
const MAX_SHARED_STRINGS_BYTES = 1024 ** 3;

const SLAB = 1024 * 1024;
/** A string longer than this is kept apart (its own buffer), so no slab wastes more than this at its end. */
const LONG = SLAB / 16;

export class SharedStrings {
  private readonly slabs: Buffer[] = [];
  /**
   * Where each string ends, counted through the slabs as one run of bytes. A string starts where the
   * one before it ended, or, when it did not fit in that slab, at the next slab's start; a long one
   * takes no bytes here (it starts and ends at the same place) and is in `long`.
   */
  private ends = new Uint32Array(1024);
  private used = 0;
  private long: Map<number, Buffer> | undefined;
  count = 0;

  add(text: string): void {
    const length = Buffer.byteLength(text);
    if (this.count === this.ends.length) this.ends = grownUint32(this.ends, this.ends.length * 2);
    if (length > LONG) {
      this.long ??= new Map();
      this.long.set(this.count, Buffer.from(text));
    } else if (length > 0) {
      let at = this.used;
      if ((at % SLAB) + length > SLAB) at = nextSlab(at);
      const slab = Math.floor(at / SLAB);
      this.slabs[slab] ??= Buffer.allocUnsafeSlow(SLAB);
      this.slabs[slab].write(text, at - slab * SLAB);
      this.used = at + length;
    }
    this.ends[this.count++] = this.used;
  }

  /** The string at `index`, or undefined past the table's end. */
  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    let start = index === 0 ? 0 : this.ends[index - 1]!;
    const end = this.ends[index]!;
    if (start === end) return this.long?.get(index)?.toString('utf8') ?? '';
    // it ends past the slab where the one before it ended: it was moved to the next slab's start
    if (end > nextSlab(start)) start = nextSlab(start);
    const slab = Math.floor(start / SLAB);
    const offset = start - slab * SLAB;
    return this.slabs[slab]!.toString('utf8', offset, offset + end - start);
  }

  /** Bytes held for the strings' text (slabs and long strings), for the tests: the text's size, not twice it. */
  heldBytes(): number {
    let held = this.slabs.filter(Boolean).length * SLAB;
    for (const buffer of this.long?.values() ?? []) held += buffer.length;
    return held;
  }
}

const nextSlab = (at: number) => (Math.floor(at / SLAB) + 1) * SLAB;

/**
 * Excel's escapes in text (ECMA-376 part 1, 22.9.2.19, ST_Xstring): `_xHHHH_` is the character
 * HHHH (how Excel writes a CR or a control character XML cannot hold), and `_x005F_` an underscore,
 * so `_x005F_x000D_` is the literal text `_x000D_`.
 */
export function unescapeXstring(text: string): string {
  return text.includes('_x') ? text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : text;
}
const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/**
 * Reads the table. An item (`si`) is its text (`t`), or its runs' texts (`r/t`) joined; phonetic
 * guides (`rPh`) are not part of the text.
 */
export async function readSharedStrings(zip: WorkbookZip, part: string | undefined, maxTextChars: number): Promise<SharedStrings> {
  const strings = new SharedStrings();
  if (part === undefined) return strings;
  let text = '';
  let inItem = false;
  let inText = false;
  let phonetic = 0;
  await readXml(
    await zip.stream(part, MAX_SHARED_STRINGS_BYTES),
    {
      open(name) {
        if (name === 'si') {
          inItem = true;
          text = '';
        } else if (name === 't') inText = inItem && phonetic === 0;
        else if (name === 'rPh') phonetic++;
      },
      close(name) {
        if (name === 'si') {
          strings.add(unescapeXstring(text));
          inItem = false;
        } else if (name === 't') inText = false;
        else if (name === 'rPh') phonetic--;
      },
      text(t) {
        if (inText) text += t;
      },
    },
    maxTextChars,
  );
  return strings;
}
