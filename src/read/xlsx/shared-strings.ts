// The workbook's shared string table (usually xl/sharedStrings.xml): cells of type `s` hold an index into
// it. It is a separate part that must be read before the sheet, and on a sheet of unique texts it
// holds every one of them, so it is kept compact and off the JS heap: the strings' UTF-8 bytes one
// after another in one buffer, and where each ends in a Uint32Array. A million strings of 20
// characters cost about 24 MB (not the ~100 MB of a million JS strings); each is decoded when read.
import { grownBuffer, grownUint32 } from '../../util/outgrown.js';
import type { WorkbookZip } from './workbook-zip.js';
import { readXml } from './xml-stream.js';

/** The largest shared string table read: its UTF-8 text is what stays in memory for the whole read. */
const MAX_SHARED_STRINGS_BYTES = 1024 ** 3;

export class SharedStrings {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private ends = new Uint32Array(1024);
  private used = 0;
  count = 0;

  add(text: string): void {
    const length = Buffer.byteLength(text);
    if (this.used + length > this.bytes.length) {
      this.bytes = grownBuffer(this.bytes, Math.max(this.bytes.length * 2, this.used + length), this.used);
    }
    if (this.count === this.ends.length) this.ends = grownUint32(this.ends, this.ends.length * 2);
    this.used += this.bytes.write(text, this.used);
    this.ends[this.count++] = this.used;
  }

  /** The string at `index`, or undefined past the table's end. */
  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    return this.bytes.toString('utf8', index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
  }
}

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
