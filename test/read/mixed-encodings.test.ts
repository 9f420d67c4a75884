// A CSV whose lines were written by different clients, some in UTF-8 and some in Windows-1252 (a
// vTiger/MySQL export): with the encoding detected, each physical line is read in its own encoding
// and one warning per file says how many lines were read as Windows-1252 and where the first is.
// --encoding (reader.encoding) still reads the whole file one way.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, SourceRecord } from '../../src/read/types.js';
import { tempDir } from './helpers.js';

const file = tempDir();
const utf8 = (s: string) => Buffer.from(s, 'utf8');
const cp1252 = (s: string) => iconv.encode(s, 'windows-1252');

async function read(path: string, options: ReaderOptions = {}, fast = true) {
  const source = await openSource(path, options, fast);
  const records: SourceRecord[] = [];
  for await (const r of source.records) records.push(r);
  const texts = records.map((r) => (r.kind === 'row' ? r.row.texto : r.kind));
  return { texts, detected: source.detected, warnings: source.warnings.filter((w) => !w.note).map((w) => `${w.line ?? '-'}: ${w.message}`) };
}

const MIXED_WARNING = (lines: string, first: number) =>
  `-: mixed encodings: ${lines} read as windows-1252 (first: line ${first}); the others as UTF-8 — give --encoding to read the whole file one way`;

describe.each([
  ['fast', true],
  ['simple', false],
])('mixed UTF-8 and Windows-1252 lines (%s parser)', (engine, fast) => {
  it('reads each line in its own encoding, with one warning naming the count and the first line', async () => {
    const path = file(
      `mixed-${engine}.csv`,
      Buffer.concat([
        utf8('id;texto\n1;Café “ok” – é\n'),
        cp1252('2;Café “ok” – é\r\n'),
        utf8('3;"línea\r\nde dos"\n'),
        cp1252('4;"José\nPeña"\n'),
        cp1252('5;Ñandú €\n'),
      ]),
    );
    const { texts, warnings } = await read(path, {}, fast);
    expect(texts).toEqual(['Café “ok” – é', 'Café “ok” – é', 'línea\r\nde dos', 'José\nPeña', 'Ñandú €']);
    expect(warnings).toEqual([MIXED_WARNING('4 lines are not UTF-8 and were', 3)]);
  });

  it('a UTF-8 file whose first non-UTF-8 line comes after the detection sample reads it as Windows-1252, with the warning', async () => {
    const head = 'id;texto\n' + 'a;ção\n'.repeat(20_000);
    const path = file(`late-${engine}.csv`, Buffer.concat([utf8(head), cp1252('x;José\n'), utf8('y;José\n')]));
    const { texts, detected, warnings } = await read(path, {}, fast);
    expect(texts.slice(-3)).toEqual(['ção', 'José', 'José']);
    expect(texts.filter((t) => t?.includes('\ufffd') || t?.includes('Ã'))).toEqual([]);
    expect(detected.encoding).toBe('utf-8');
    expect(warnings).toEqual([MIXED_WARNING('1 line is not UTF-8 and was', 20_002)]);
  });

  it('a Windows-1252 file whose UTF-8 lines come after the detection sample reads them as UTF-8', async () => {
    const head = 'id;texto\n' + 'a;Peña\n'.repeat(20_000);
    const path = file(`late-utf8-${engine}.csv`, Buffer.concat([cp1252(head), utf8('x;José\n'), cp1252('y;José\n')]));
    const { texts, detected, warnings } = await read(path, {}, fast);
    expect(texts.slice(-3)).toEqual(['Peña', 'José', 'José']);
    expect(detected.encoding).toBe('windows-1252');
    expect(warnings).toEqual([
      '-: not valid UTF-8: read as Windows-1252 (pass --encoding to choose another)',
      MIXED_WARNING('20,001 lines are not UTF-8 and were', 2),
    ]);
  });

  it('a line that holds UTF-8 letters and windows-1252 bytes (vTiger: a UTF-8 comment, a name from another table) reads both right', async () => {
    const path = file(
      `within-${engine}.csv`,
      Buffer.concat([utf8('id;texto;nombre\n1;reunión;x\n2;Reunión “ok” – 10€;'), cp1252('José Peña\n'), cp1252('3;Peña;Ã©\n')]),
    );
    const source = await openSource(path, {}, fast);
    const rows: Record<string, string>[] = [];
    for await (const r of source.records) if (r.kind === 'row') rows.push({ ...r.row });
    expect(rows.slice(1)).toEqual([
      { id: '2', texto: 'Reunión “ok” – 10€', nombre: 'José Peña' },
      // a windows-1252 line is read byte by byte, but for what reads as a UTF-8 letter: Ã© in windows-1252 is é in UTF-8
      { id: '3', texto: 'Peña', nombre: 'é' },
    ]);
    expect(source.warnings.map((w) => w.message)).toEqual([
      'mixed encodings: 2 lines are not UTF-8 and were read as windows-1252 (first: line 3), but for the UTF-8 letters and signs 2 of them also hold; the others as UTF-8 — give --encoding to read the whole file one way',
    ]);
  });

  it('in a windows-1252 file (no UTF-8 line seen) a pair of bytes that would be a UTF-8 letter stays windows-1252', async () => {
    const { texts } = await read(file(`pairs-${engine}.csv`, cp1252('id;texto\n1;Peña Ã© “ARAÚJO”\n')), {}, fast);
    expect(texts).toEqual(['Peña Ã© “ARAÚJO”']);
  });

  it('--encoding still reads the whole file one way, without the warning', async () => {
    const path = file(`forced-${engine}.csv`, Buffer.concat([utf8('id;texto\n1;é\n'), cp1252('2;é\n')]));
    const { texts, warnings } = await read(path, { encoding: 'windows-1252' }, fast);
    expect(texts).toEqual(['Ã©', 'é']);
    expect(warnings).toEqual([]);
  });

  it('a pure UTF-8 file and a pure Windows-1252 file read as before', async () => {
    const u = await read(file(`pure-u-${engine}.csv`, utf8('id;texto\n1;Café “ok”\n2;é\n')), {}, fast);
    expect(u).toEqual({ texts: ['Café “ok”', 'é'], detected: expect.objectContaining({ encoding: 'utf-8' }), warnings: [] });
    const w = await read(file(`pure-w-${engine}.csv`, cp1252('id;texto\n1;Café “ok”\n2;é\n')), {}, fast);
    expect(w).toEqual({
      texts: ['Café “ok”', 'é'],
      detected: expect.objectContaining({ encoding: 'windows-1252' }),
      warnings: ['-: not valid UTF-8: read as Windows-1252 (pass --encoding to choose another)'],
    });
  });
});

it('the sample init and inspect read (the first rows only) reads the lines the same way and says so', async () => {
  const path = file('sample.csv', Buffer.concat([utf8('id;texto\n1;é\n'), cp1252('2;é\n'), utf8('3;é\n'.repeat(50))]));
  const source = await openSource(path);
  const texts: string[] = [];
  for await (const r of source.records) {
    if (r.kind === 'row') texts.push(r.row.texto!);
    if (texts.length === 3) break;
  }
  expect(texts).toEqual(['é', 'é', 'é']);
  expect(source.detected.encoding).toBe('utf-8+windows-1252');
  expect(source.warnings.map((w) => w.message)).toEqual([
    `mixed encodings (in the part read): 1 line is not UTF-8 and was read as windows-1252 (first: line 3); the others as UTF-8 — give --encoding to read the whole file one way`,
  ]);
});
