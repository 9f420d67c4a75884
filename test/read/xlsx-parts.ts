// Workbooks built part by part for the reader's tests: a package's parts as Excel lays them out
// (or otherwise), zipped by the fixtures' own writer, and read through openSource as a run reads
// them (the records, their lines, the warnings a user sees).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { InputError } from '../../src/errors.js';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, SourceRecord } from '../../src/read/types.js';
// @ts-expect-error: a plain .mjs module without types
import { ZipWriter } from '../../fixtures/xlsx/xlsx-writer.mjs';

const dir = mkdtempSync(join(tmpdir(), 'batch-sync-xlsx-hand-'));
export const NS =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const rels = (list: [string, string, string][]) =>
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${list
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type.includes('/') ? type : `${REL}/${type}`}" Target="${target}"/>`)
    .join('')}</Relationships>`;
export const sheet = (rows: string) => `<?xml version="1.0"?><worksheet ${NS}><sheetData>${rows}</sheetData></worksheet>`;
export const STYLES = (numFmts = '', xfs = '<xf numFmtId="0"/>', dxfs = '') =>
  `<?xml version="1.0"?><styleSheet ${NS}>${numFmts}<cellXfs>${xfs}</cellXfs>${dxfs}</styleSheet>`;

export interface Package {
  sheets?: string[];
  strings?: string[];
  styles?: string;
  workbookPr?: string;
  extLst?: string;
}

/** The parts of a plain workbook (names → text), as Excel lays them out. */
export function parts({ sheets = [], strings, styles = STYLES(), workbookPr = '<workbookPr/>', extLst = '' }: Package): Record<string, string> {
  const out: Record<string, string> = {
    '[Content_Types].xml': '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    '_rels/.rels': rels([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml': `<?xml version="1.0"?><workbook ${NS}>${workbookPr}<sheets>${sheets.map((_, i) => `<sheet name="S${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets>${extLst}</workbook>`,
    'xl/_rels/workbook.xml.rels': rels([
      ...sheets.map((_, i): [string, string, string] => [`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`]),
      ['rIdS', 'styles', 'styles.xml'],
      ...(strings ? [['rIdT', 'sharedStrings', 'sharedStrings.xml'] as [string, string, string]] : []),
    ]),
    'xl/styles.xml': styles,
  };
  sheets.forEach((xml, i) => {
    out[`xl/worksheets/sheet${i + 1}.xml`] = xml;
  });
  if (strings)
    out['xl/sharedStrings.xml'] = `<?xml version="1.0"?><sst ${NS}>${strings.map((s) => `<si><t xml:space="preserve">${s}</t></si>`).join('')}</sst>`;
  return out;
}

let n = 0;
/** Writes the parts as a zip (stored, so a test can change a byte of one) and returns its path. */
export async function write(partList: Record<string, string> | [string, string][], stored = false): Promise<string> {
  const path = join(dir, `w${++n}.xlsx`);
  const zip = new ZipWriter(path);
  for (const [name, text] of Array.isArray(partList) ? partList : Object.entries(partList)) await zip.add(name, text, { stored });
  await zip.close();
  return path;
}

export async function read(file: string, options: ReaderOptions = {}) {
  const source = await openSource(file, options);
  const records: SourceRecord[] = [];
  for await (const r of source.records) records.push(r);
  const rows = records.map((r) => (r.kind === 'row' ? [r.line, ...r.cells!] : [r.line, r.kind === 'unreadable' ? r.reason : r.kind]));
  return { source, rows, warnings: source.warnings.map((w) => w.message) };
}

export async function refusal(file: string): Promise<string> {
  const err = await openSource(file).then(
    async (s) => {
      for await (const _ of s.records);
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return (err as Error).message.replace(`${file}: `, '');
}

export const row = (r: number, cells: string) => `<row r="${r}">${cells}</row>`;
export const str = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
export const num = (ref: string, v: string | number, s?: number) => `<c r="${ref}"${s === undefined ? '' : ` s="${s}"`}><v>${v}</v></c>`;
export const header = row(1, str('A1', 'id') + str('B1', 'value'));
