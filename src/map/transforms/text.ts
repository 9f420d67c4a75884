// Text transforms: ids from names (`Anna Snelling` → `anna-snelling`), full names split in two,
// booleans in the words spreadsheets use, case changes.

import anyAscii from 'any-ascii';
import { remembered } from './remembered.js';

const MARKS = /[\u0300-\u036f]/g;
const NOT_ALNUM = /[^a-z0-9]+/g;
const EDGE_DASHES = /^-+|-+$/g;

// profiles fold and slug the same few values on every row (a stage, an owner's name): so it is done
// once per distinct value instead of once per row, which saves most of that CPU and its garbage
/** Without accents, lower case: `Ação` → `acao`. Used for slugs and for forgiving comparisons. */
export const fold = remembered((text) => text.normalize('NFD').replace(MARKS, '').toLowerCase());

/**
 * Runs of letters, marks and digits of scripts other than Latin: what `slug` transliterates. Symbols
 * and emoji it drops, and Latin letters with no accent to drop (`ß`, `ø`, `ł`) too, as it always
 * did: a slug is an id already sent, and a new one would be a new record on the server.
 */
const OTHER_SCRIPT = /(?:(?![\u0000-\u007f])(?!\p{Script=Latin})[\p{L}\p{M}\p{N}])+/gu;

/**
 * A stable id from a name: accents dropped (`José` → `jose`, as always), then letters of other
 * scripts transliterated to ASCII by any-ascii, character by character and the same on every run
 * (`Иван` → `ivan`, `Γιώργος` → `giorgos`, `张三` → `zhangsan`; its version is pinned, since a new
 * table would change ids), lower case, runs of anything else → one `-`.
 */
export const slug = remembered((text) =>
  fold(text)
    .replace(OTHER_SCRIPT, (run) => anyAscii(run).toLowerCase())
    .replace(NOT_ALNUM, '-')
    .replace(EDGE_DASHES, ''),
);

const SPACES = /\s+/;

/**
 * Full name → first and last name: the last word is the last name, everything before it the first
 * name (`Mei-Mei Johns` → `Mei-Mei` / `Johns`; `Ana María de la Cruz` → `Ana María de la` / `Cruz`).
 * Wrong for compound surnames, but predictable; map separate columns when the export has them. A
 * single word is a first name with an empty last name (the contract allows it).
 */
export function splitName(full: string): { firstName: string; lastName: string } {
  const words = full.trim().split(SPACES).filter(Boolean);
  if (words.length <= 1) return { firstName: words[0] ?? '', lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1]! };
}

const TRUE_WORDS = ['true', 'yes', 'y', '1', 'si', 'sí', 'sim', 'verdadero', 'verdadeiro', 'x', 'on'];
const FALSE_WORDS = ['false', 'no', 'n', '0', 'nao', 'não', 'falso', 'off'];
const BOOLEANS = new Map<string, boolean>([...TRUE_WORDS.map((w) => [fold(w), true] as const), ...FALSE_WORDS.map((w) => [fold(w), false] as const)]);

/** `true/false`, `yes/no`, `sí/no`, `sim/não`, `1/0`, `verdadero/falso`…; undefined when it is none of them. */
export function parseBoolean(raw: string): boolean | undefined {
  return BOOLEANS.get(fold(raw.trim()));
}
export const BOOLEAN_WORDS_HELP = 'true/false, yes/no, sí/no, sim/não, 1/0';
