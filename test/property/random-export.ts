// fast-check arbitraries for "a messy export and a valid profile for it": random header names
// (unicode, `__proto__`), cells with quotes, delimiters, line breaks, Excel artefacts and locale
// numbers, ragged rows, blank rows, BOM, mixed line endings. The writer quotes cells the way a
// careful exporter would, so the number of data records is known from what was generated, not
// from what our reader makes of it.
import fc from 'fast-check';

const DELIMITERS = [',', ';', '\t', '|'] as const;

const HEADER_POOL = ['id', 'nome', 'Título', 'valor', 'Größe', '名前', 'e-mail', 'col x', 'fecha', '__proto__', 'constructor', 'ID2'];

const TRICKY = [
  '',
  ' ',
  '"',
  '""',
  'a"b',
  ',',
  ';',
  '\t',
  '|',
  '\n',
  '\r\n',
  'x\ry',
  '#N/A',
  '#¡VALOR!',
  '1.23E+11',
  '00123',
  '(123)',
  '133,55-',
  '1.234,56',
  '1,234.56',
  '1 234,5',
  '=SUM(A1)',
  '+1',
  '-2',
  '@x',
  'José',
  'Ação',
  '名前',
  '🙂',
  '\u00a0',
  '\uFEFF',
  '2024-02-30',
  '2024-02-29',
  'true',
  'false',
  '0',
  '-0',
  'NaN',
  'Infinity',
  '9007199254740993',
];

const localeNumber = fc
  .tuple(fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.constantFrom('en-US', 'de-DE', 'pt-BR', 'fr-FR', 'de-CH', 'hi-IN'))
  .map(([n, locale]) => n.toLocaleString(locale, { maximumFractionDigits: 3 }));

const cell: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }).map((s) => s.replace(/\0/g, '')) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 2, arbitrary: localeNumber },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Z]{1,3}-\d{1,4}$/) },
);

export interface RandomExport {
  header: string[];
  /** Some rows are exact copies of earlier ones (an export that repeats rows): identical repeats. */
  rows: string[][];
  delimiter: (typeof DELIMITERS)[number];
  /** Pass --delimiter; otherwise the reader detects it. */
  explicitDelimiter: boolean;
  lineEnding: '\n' | '\r\n' | '\r' | 'mixed';
  bom: boolean;
  trailingNewline: boolean;
  /** Per row: which line ending follows it when `lineEnding` is mixed. */
  endings: number[];
}

export const randomExport: fc.Arbitrary<RandomExport> = fc
  .record({
    header: fc.shuffledSubarray(HEADER_POOL, { minLength: 2, maxLength: 5 }),
    delimiter: fc.constantFrom(...DELIMITERS),
    explicitDelimiter: fc.boolean(),
    lineEnding: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const, 'mixed' as const),
    bom: fc.boolean(),
    trailingNewline: fc.boolean(),
    rowSpecs: fc.array(
      fc.record({ shape: fc.constantFrom('fit', 'fit', 'fit', 'fit', 'short', 'long', 'blank'), cells: fc.array(cell, { minLength: 6, maxLength: 6 }) }),
      { maxLength: 12 },
    ),
    endings: fc.array(fc.nat(2), { minLength: 12, maxLength: 12 }),
    /** Rows written again, exactly, at the end (by index into the rows, wrapped). */
    repeats: fc.array(fc.nat(11), { maxLength: 3 }),
  })
  .map(({ rowSpecs, header, repeats, ...rest }) => {
    const width = header.length;
    const rows = rowSpecs.map(({ shape, cells }) => {
      if (shape === 'blank') return Array.from({ length: width }, () => '');
      if (shape === 'short') return cells.slice(0, Math.max(1, width - 1));
      if (shape === 'long') return cells.slice(0, width + 1);
      return cells.slice(0, width);
    });
    const copies = rows.length === 0 ? [] : repeats.map((i) => [...rows[i % rows.length]!]);
    return { header, rows: [...rows, ...copies], ...rest };
  });

/** Records our contract promises to read: a row whose cells are all blank is not data (Excel pads with `;;;`). */
export function dataRecords(e: RandomExport): number {
  return e.rows.filter((r) => r.some((c) => c.trim() !== '')).length;
}

const ENDINGS = ['\n', '\r\n', '\r'];

export function writeCsv(e: RandomExport): string {
  // with detection, quote anything that could look like another delimiter: what a careful exporter
  // writes, and what makes the record count independent of which candidate the sniffer tries
  const special = e.explicitDelimiter ? [e.delimiter, '"', '\r', '\n'] : [...DELIMITERS, '"', '\r', '\n'];
  const quote = (c: string) => (special.some((s) => c.includes(s)) || c.startsWith(' ') ? `"${c.replaceAll('"', '""')}"` : c);
  const line = (cells: string[]) => cells.map(quote).join(e.delimiter);
  const lines = [line(e.header), ...e.rows.map(line)];
  let text = e.bom ? '\uFEFF' : '';
  lines.forEach((l, i) => {
    const last = i === lines.length - 1;
    const ending = e.lineEnding === 'mixed' ? ENDINGS[e.endings[i % e.endings.length]!]! : e.lineEnding;
    text += l + (last && !e.trailingNewline ? '' : ending);
  });
  return text;
}
