// A text function remembering its last results, for values a profile meets again on row after row.

/** Texts longer than this are not kept: free text rarely repeats, and the memo stays small. */
const LONGEST = 256;

/**
 * `fn` with its last results kept: each distinct value computed once, not once per row (an owner's
 * name slugged, a stage folded, a date converted). Cleared when full, so memory stays bounded. Only
 * for functions whose result depends on the text alone.
 */
export function remembered<T>(fn: (text: string) => T, limit = 4096): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    if (text.length > LONGEST) return fn(text);
    let out = seen.get(text);
    if (out === undefined) {
      if (seen.size >= limit) seen.clear();
      seen.set(text, (out = fn(text)));
    }
    return out;
  };
}
