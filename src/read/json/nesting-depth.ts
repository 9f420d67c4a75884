// How deeply a JSON item nests, counted on its text. An item nested deeper than any export needs is
// unreadable, with its line, before anything walks it: flattening, inspect's column listing and
// JSON.stringify are recursive, and 100,000 levels in one 200 KB value ended validate, push, inspect
// and init with a stack overflow (and push left an in-flight record every rerun resent).

/** The deepest nesting a record may have; a CRM export's records nest a handful of levels. */
export const MAX_NESTING = 64;

/**
 * The first offset at which `text` (one JSON value) is nested deeper than `max`, or -1. A value that
 * deep needs more than 2·max characters, so shorter ones are not scanned.
 */
export function tooDeepAt(text: string, max = MAX_NESTING): number {
  if (text.length <= 2 * max) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}
