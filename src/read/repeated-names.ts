// One name for each column, or each key of a JSON record: an export may repeat one (Pipedrive writes
// two custom fields with one label as two columns; a hand-edited record may hold a key twice), and
// neither refusing the file nor keeping the last copy is right. The first copy keeps the name; the
// later ones are read as `Name (2)`, `Name (3)`, in order, passing over any name the list already
// holds, so the result depends only on the names: the same header gives the same names every run.

import { shorten } from '../shorten.js';

export interface Renamed {
  index: number;
  /** The name as written, and the name it is read as. */
  from: string;
  to: string;
}

/**
 * The names made unique, and the copies renamed. `generated(i)`: the name at `i` was made up by the
 * reader (`column_3` for an unnamed column), so a real name equal to it keeps its name instead.
 */
export function uniqueNames(names: readonly string[], generated?: (index: number) => boolean): { names: string[]; renamed: Renamed[] } {
  const owner = new Map<string, number>();
  const claim = (i: number) => {
    const held = owner.get(names[i]!);
    if (held === undefined) owner.set(names[i]!, i);
  };
  // real names claim theirs first; then a made-up one that no real name holds
  for (let i = 0; i < names.length; i++) if (!generated?.(i)) claim(i);
  if (generated) for (let i = 0; i < names.length; i++) if (generated(i)) claim(i);
  if (owner.size === names.length) return { names: [...names], renamed: [] };

  const taken = new Set(owner.keys());
  const next = new Map<string, number>();
  const out = [...names];
  const renamed: Renamed[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (owner.get(name) === i) continue;
    let k = next.get(name) ?? 2;
    while (taken.has(`${name} (${k})`)) k++;
    next.set(name, k + 1);
    out[i] = `${name} (${k})`;
    taken.add(out[i]!);
    renamed.push({ index: i, from: name, to: out[i]! });
  }
  return { names: out, renamed };
}

/** A warning's list: its first parts, then how many more (whatever the header holds). */
const LIST_CHARACTERS = 240;
const NAME_CHARACTERS = 60;

/** The first of `count` parts (`part(k)`) while they fit in about LIST_CHARACTERS, then `(and N more)`. */
export function listFirst(count: number, part: (k: number) => string): string {
  let text = '';
  let shown = 0;
  for (; shown < count; shown++) {
    const next = shown === 0 ? part(0) : `${text}, ${part(shown)}`;
    if (shown > 0 && next.length > LIST_CHARACTERS) break;
    text = next;
  }
  return shown < count ? `${text} (and ${count - shown} more)` : text;
}

/** `"Nome (2)" (column E), "Nome (3)" (column G) (and 9 more)`. */
export function renamedList(renamed: readonly Renamed[], where: (r: Renamed) => string): string {
  return listFirst(renamed.length, (k) => {
    const r = renamed[k]!;
    // a long name is cut before its number, which is what tells the copies apart
    return `${JSON.stringify(shorten(r.from, NAME_CHARACTERS) + r.to.slice(r.from.length))}${where(r)}`;
  });
}
