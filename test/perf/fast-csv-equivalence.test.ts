// The fast CSV path must give exactly what csv-parse (CsvChunkParser) gives: the same cells, start
// lines, flags and errors, whatever the input and however it is cut into chunks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvChunkParser, CsvSyntaxError, type CsvDialect } from '../../src/read/csv/csv-chunk-parser.js';
import { FastCsvParser } from '../../src/read/csv/fast-csv-parser.js';

interface Parser {
  feed(buf: Buffer | undefined, end: boolean, onRecord: (cells: string[], line: number, flag: boolean) => void): void;
}

function run(parser: Parser, chunks: Buffer[]) {
  const out: unknown[] = [];
  const onRecord = (cells: string[], line: number, flag: boolean) => void out.push([cells, line, flag]);
  try {
    for (const c of chunks) parser.feed(c, false, onRecord);
    parser.feed(undefined, true, onRecord);
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    out.push({ error: err.syntax });
  }
  return out;
}

/** Cuts text into chunks at character boundaries (the reader never splits a UTF-8 character). */
function chunked(text: string, cuts: number[]): Buffer[] {
  const chars = [...text];
  const at = [...new Set(cuts.map((c) => c % (chars.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...at, chars.length]) {
    if (to > from) out.push(Buffer.from(chars.slice(from, to).join(''), 'utf8'));
    from = Math.max(from, to);
  }
  return out;
}

const PIECES = ['a', 'bc', 'é€', ',', ',', ';', '"', '""', '\n', '\n', '\r\n', '\r', ' ', '\t', 'x"y', '"q,w"', '\\"'];
const csvText = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((p) => p.join(''));
const dialect = fc.record({
  delimiter: fc.constantFrom(',', ';', '\t'),
  quote: fc.constant('"'),
  escape: fc.constantFrom('"', '"', '\\'),
  maxRecordBytes: fc.constantFrom(12, 40, 1024 * 1024),
}) as fc.Arbitrary<CsvDialect>;

describe('FastCsvParser', () => {
  it('matches csv-parse on random input, dialects and chunk cuts', () => {
    fc.assert(
      fc.property(csvText, dialect, fc.array(fc.nat(80), { maxLength: 6 }), fc.integer({ min: 1, max: 5 }), (text, d, cuts, firstLine) => {
        const chunks = chunked(text, cuts);
        expect(run(new FastCsvParser(d, firstLine), chunks)).toEqual(run(new CsvChunkParser(d, firstLine), chunks));
      }),
      { numRuns: 4000 },
    );
  });

  it('matches csv-parse on a realistic export cut in small chunks', () => {
    const rows = ['id,title,amount'];
    for (let i = 0; i < 2000; i++) rows.push(i % 17 === 0 ? `${i},"Renovación, ""premium""\nfase ${i}",${i}.5` : `${i},Título ${i},${i}`);
    const text = `${rows.join('\r\n')}\r\n\r\n`;
    const d: CsvDialect = { delimiter: ',', quote: '"', escape: '"', maxRecordBytes: 1024 * 1024 };
    const chunks = chunked(
      text,
      Array.from({ length: 300 }, (_, i) => i * 331),
    );
    const fast = run(new FastCsvParser(d), chunks);
    expect(fast).toEqual(run(new CsvChunkParser(d), chunks));
    expect(fast).toHaveLength(2001);
  });
});
