// The namespaces readXml reports (the workbook part's main-namespace elements are told from an
// extension's `x15:workbookPr` by them): followed here from the xmlns attributes in scope, since
// saxes runs without its own namespace mode (BENCHMARKS.md, stage (x) on a quiet host).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseXml, readXml, XmlBroken } from '../../src/read/xlsx/xml-stream.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const X15 = 'http://schemas.microsoft.com/office/spreadsheetml/2010/11/main';

async function opened(xml: string): Promise<string[]> {
  const seen: string[] = [];
  await readXml(Readable.from([xml]), { open: (name, _a, ns) => void seen.push(`${name} ${ns}`) }, 1_000_000, true);
  return seen;
}

describe('readXml with namespaces', () => {
  it('the default namespace, a prefixed one declared on a child, and the scope left behind after it closes', async () => {
    const xml = `<workbook xmlns="${MAIN}"><workbookPr date1904="1"/><ext xmlns:x15="${X15}"><x15:workbookPr/></ext><sheets/></workbook>`;
    expect(await opened(xml)).toEqual([`workbook ${MAIN}`, `workbookPr ${MAIN}`, `ext ${MAIN}`, `workbookPr ${X15}`, `sheets ${MAIN}`]);
  });

  it('the main namespace bound to a prefix, and a default redeclared inside then restored', async () => {
    const xml = `<x:workbook xmlns:x="${MAIN}"><x:workbookPr/><inner xmlns="${X15}"><workbookPr/></inner><workbookPr/></x:workbook>`;
    expect(await opened(xml)).toEqual([`workbook ${MAIN}`, `workbookPr ${MAIN}`, `inner ${X15}`, `workbookPr ${X15}`, 'workbookPr ']);
  });

  it('a prefix bound nowhere is broken XML, as a namespace-aware parser says', async () => {
    await expect(opened(`<workbook xmlns="${MAIN}"><x15:workbookPr/></workbook>`)).rejects.toThrow(XmlBroken);
  });
});

describe('parts in UTF-16 (issue 34, item 4)', () => {
  const XML = '<?xml version="1.0" encoding="UTF-16"?><sst><si><t>Zürich – 東京 😀</t></si><si><t>b</t></si></sst>';
  async function texts(chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<string[]> {
    const seen: string[] = [];
    await readXml(Readable.from(chunks), { open: (name) => void seen.push(`<${name}>`), text: (t) => void seen.push(t) }, 1_000_000);
    return seen;
  }
  const bytewise = (bytes: Buffer) => Array.from(bytes, (b) => Buffer.from([b]));
  const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

  it.each([
    ['UTF-16LE with its BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(XML, 'utf16le')])],
    ['UTF-16LE without one', Buffer.from(XML, 'utf16le')],
    ['UTF-16BE with its BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(XML)])],
    ['UTF-16BE without one', utf16be(XML)],
  ])('%s, arriving a byte at a time (code units and surrogate pairs split): the same events as in UTF-8', async (_, bytes) => {
    const expected = await texts([Buffer.from(XML.replace('UTF-16', 'UTF-8'))]);
    expect(expected).toEqual(['<sst>', '<si>', '<t>', 'Zürich – 東京 😀', '<si>', '<t>', 'b']);
    expect(await texts(bytewise(bytes))).toEqual(expected);
    expect(await texts([bytes])).toEqual(expected);
  });

  it('a UTF-16 part is decoded as it streams: its first elements arrive before the rest of it is read', async () => {
    const row = utf16be('<row><c><v>1</v></c></row>');
    let produced = 0;
    let seenAfter = -1;
    async function* endless() {
      yield utf16be('<sheetData>');
      for (produced = 0; produced < 10_000; produced++) yield row;
      yield utf16be('</sheetData>');
    }
    const stream = Readable.from(endless());
    for await (const _ of parseXml(stream, { open: (name) => void (name === 'row' && seenAfter < 0 && (seenAfter = produced)) }, 1_000_000)) {
      if (seenAfter >= 0) break;
    }
    expect(seenAfter).toBeGreaterThanOrEqual(0);
    expect(seenAfter).toBeLessThan(100);
  });
});
