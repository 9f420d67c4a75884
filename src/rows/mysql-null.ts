// MySQL's NULL in a `SELECT … INTO OUTFILE` CSV: an unquoted `\N` as a whole cell (a text `\N` is
// written `\\N`). Whether a file uses it is read from the data, never assumed: init's sample
// (commands/init-sample.ts) and, past the sample, its check of the whole file (check-profile.ts) count
// the cells, and the same rule decides for both.

export const MYSQL_NULL = '\\N';

/**
 * `\N` as a whole cell often enough to be the file's NULL: in 2 columns or more, or in 5% of the
 * cells. Once or twice in one column it may be text, and nothing is changed without the data saying so.
 */
export function isMysqlNull(columns: number, cells: number, allCells: number): boolean {
  return columns >= 2 || (cells > 0 && cells >= 0.05 * allCells);
}

/** Counts `\N` cells per column over the rows it is shown; the first line holding one. */
export function mysqlNullCounter() {
  const columns = new Map<string, number>();
  const seen = { cells: 0, rows: 0, width: 0, firstLine: undefined as number | undefined };
  return {
    see(cells: Record<string, string | undefined>, line: number): void {
      seen.rows += 1;
      let width = 0;
      for (const column in cells) {
        width += 1;
        if (cells[column] !== MYSQL_NULL) continue;
        columns.set(column, (columns.get(column) ?? 0) + 1);
        seen.cells += 1;
        seen.firstLine ??= line;
      }
      seen.width = Math.max(seen.width, width);
    },
    /** The columns holding it and the first line, when the rule says it is the file's NULL. */
    found(): { columns: string[]; firstLine: number } | undefined {
      if (!isMysqlNull(columns.size, seen.cells, seen.rows * seen.width) || seen.firstLine === undefined) return undefined;
      return { columns: [...columns.keys()], firstLine: seen.firstLine };
    },
  };
}
