// The namespaces readXml reports (the workbook part's main-namespace elements are told from an
// extension's `x15:workbookPr` by them): followed here from the xmlns attributes in scope, since
// saxes runs without its own namespace mode (BENCHMARKS.md, stage (x) on a quiet host).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readXml, XmlBroken } from '../../src/read/xlsx/xml-stream.js';

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
