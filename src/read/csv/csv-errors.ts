// One-line messages for CSV syntax that stops the read, each naming the line the record started on.

import { InputError } from '../../errors.js';
import { at } from '../file-errors.js';
import type { CsvSyntax } from './csv-chunk-parser.js';

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export function csvSyntaxError(file: string, syntax: CsvSyntax, maxRecordBytes: number, quote: string): InputError {
  const where = at(file, syntax.line);
  switch (syntax.kind) {
    case 'too-large':
      return new InputError(
        `${where}: the record starting on this line is over ${formatBytes(maxRecordBytes)}: an unbalanced quote (a field opened with ${quote} and never closed) or a huge field`,
        {
          suggestion: `Check the quotes on line ${syntax.line}. If a field really is that large, raise the limit (maxRecordBytes, --max-record-bytes).`,
        },
      );
    case 'unclosed-quote':
      return new InputError(`${where}: unbalanced quote: a field opened with ${quote} on this line is never closed`, {
        suggestion: `Close the quote on line ${syntax.line}, or double the quotes inside the field (${quote}${quote}).`,
      });
    default:
      return new InputError(`${where}: cannot parse the CSV here (${syntax.message.replace(/\s+/g, ' ')})`);
  }
}
