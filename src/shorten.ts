// Long texts from outside (server details, lists of errors) are cut for a report line. A cut in the
// middle of a word or a quoted value reads as another value (`ownerExternalId: "ca`) and leaves a
// quote open that the report's grouping then takes for the start of a value: cut at a word's end.

/** The text whole when it fits in `max` characters, else cut after a whole word and marked with …. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  // the last space, unless that throws away more than half (one enormous word: cut it)
  const space = head.search(/\s\S*$/);
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** Whole parts joined while they fit in `max` characters, then how many were left out. */
export function shortList(parts: readonly string[], max: number, separator = '; '): string {
  if (parts.length === 0) return '';
  let text = shorten(parts[0]!, max);
  let shown = 1;
  for (; shown < parts.length; shown++) {
    const next = `${text}${separator}${parts[shown]}`;
    if (next.length > max) break;
    text = next;
  }
  return shown < parts.length ? `${text} (and ${parts.length - shown} more)` : text;
}
