// A problem with one row, as the report prints it: `file:line  column → field: reason`.

export interface Diagnostic {
  severity: 'error' | 'warning';
  file: string;
  line?: number;
  /** Source column the value came from, when known. */
  column?: string;
  /** Dotted API field path (`amount.currency`), when known. */
  field?: string;
  reason: string;
  suggestion?: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}`;
  // a canonical CSV's column is the field itself: say it once
  const target = (d.column === d.field ? [d.field] : [d.column, d.field]).filter(Boolean).join(' → ');
  return `${where}  ${target ? `${target}: ` : ''}${d.reason}`;
}
