// How a problem reads in an outcome's detail, on whichever thread the row was checked.

/** `column → field: reason`, as much of it as is known. */
export function problemText(p: { column?: string; field?: string; reason: string }): string {
  const target = [p.column, p.field].filter((part, i, all) => part && all.indexOf(part) === i).join(' → ');
  return target ? `${target}: ${p.reason}` : p.reason;
}
