// A cell read by the fast CSV path is a slice of its line's string, and V8 keeps the whole line
// alive for as long as the slice lives. An externalId is kept for the whole run (duplicate check,
// state store), so it gets its own copy, a fraction of the memory the slices pinned.

/** The same text, not sharing memory with a larger string. */
export function ownString(s: string): string {
  // V8 flattens the concatenation into a new string, so the slice of it pins only s.length + 1 chars
  return s.length < 13 ? s : (' ' + s).slice(1);
}
