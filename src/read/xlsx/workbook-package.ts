// Where a workbook's parts are, as the Open Packaging Conventions say (ECMA-376 part 2): the
// package's relationships (`_rels/.rels`) name the workbook part — usually xl/workbook.xml, but a
// writer may put it anywhere (at the archive's root, in `wtf/`) —, and the workbook's own
// relationships name the part of each sheet, the shared strings and the styles. Names are matched
// without regard to case (WorkbookZip). Also read here: the sheets in workbook order and the date
// system, from the workbook part's main-namespace elements only (an `<x15:workbookPr>` in an
// extension list is another element than `<workbookPr date1904="1">`).
import { posix } from 'node:path';
import { readXml } from './xml-stream.js';
import { notWorkbook, noWorkbook, type WorkbookZip } from './workbook-zip.js';

export interface SheetEntry {
  name: string;
  /** The part that holds it, e.g. `xl/worksheets/sheet1.xml`; undefined for a chart sheet. */
  part: string | undefined;
  /** Hidden in Excel (`hidden` or `veryHidden`): never read unless --sheet names it. */
  hidden: boolean;
}

export interface WorkbookPackage {
  sheets: SheetEntry[];
  /** The 1904 date system (Excel for Mac before 2011): serial 0 is 1904-01-01. */
  date1904: boolean;
  /** The shared strings' and the styles' parts, when the workbook has them. */
  sharedStrings: string | undefined;
  styles: string | undefined;
}

const SMALL_PART_BYTES = 64 * 1024 * 1024;
const SMALL_TEXT = 1024 * 1024;
/** SpreadsheetML's main namespace, Transitional and Strict. */
const MAIN = new Set(['http://schemas.openxmlformats.org/spreadsheetml/2006/main', 'http://purl.oclc.org/ooxml/spreadsheetml/main']);

interface Relationship {
  id: string;
  type: string;
  part: string;
}

export async function readPackage(file: string, zip: WorkbookZip): Promise<WorkbookPackage> {
  const workbook = await workbookPart(file, zip);
  const dir = posix.dirname(workbook) === '.' ? '' : posix.dirname(workbook);
  const relsPart = posix.join(dir, '_rels', `${posix.basename(workbook)}.rels`);
  if (!zip.has(relsPart)) throw notWorkbook(file, `a workbook without its relationships part ${relsPart}, which says where its sheets are`);
  const rels = await readRelationships(zip, relsPart, dir);
  const byId = new Map(rels.map((r) => [r.id, r]));
  const listed: { name: string; rid: string; hidden: boolean }[] = [];
  let date1904 = false;
  await readXml(
    await zip.stream(workbook, SMALL_PART_BYTES),
    {
      open(name, a, namespace) {
        if (!MAIN.has(namespace ?? '')) return;
        if (name === 'sheet') listed.push({ name: a.name ?? '', rid: relId(a) ?? '', hidden: a.state === 'hidden' || a.state === 'veryHidden' });
        else if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
      },
    },
    SMALL_TEXT,
    true,
  );
  const sheets = listed.map(({ name, rid, hidden }): SheetEntry => {
    const rel = byId.get(rid);
    return { name, part: rel?.type.endsWith('/worksheet') && zip.has(rel.part) ? rel.part : undefined, hidden };
  });
  const ofType = (type: string, usual: string) => {
    const part = rels.find((r) => r.type.endsWith(type))?.part ?? posix.join(dir, usual);
    return zip.has(part) ? part : undefined;
  };
  return { sheets, date1904, sharedStrings: ofType('/sharedStrings', 'sharedStrings.xml'), styles: ofType('/styles', 'styles.xml') };
}

/** The part `_rels/.rels` names as the office document, else xl/workbook.xml where writers put it. */
async function workbookPart(file: string, zip: WorkbookZip): Promise<string> {
  if (zip.has('_rels/.rels')) {
    const main = (await readRelationships(zip, '_rels/.rels', '')).find((r) => r.type.endsWith('/officeDocument'));
    if (main && zip.has(main.part)) return main.part;
  }
  if (zip.has('xl/workbook.xml')) return 'xl/workbook.xml';
  throw noWorkbook(file, zip, 'a zip archive without xl/workbook.xml');
}

/** A relationships part's internal targets, as part names from the archive's root. */
async function readRelationships(zip: WorkbookZip, part: string, from: string): Promise<Relationship[]> {
  const rels: Relationship[] = [];
  await readXml(
    await zip.stream(part, SMALL_PART_BYTES),
    {
      open(name, a) {
        if (name !== 'Relationship' || !a.Id || !a.Target || a.TargetMode === 'External') return;
        rels.push({ id: a.Id, type: a.Type ?? '', part: resolve(from, a.Target) });
      },
    },
    SMALL_TEXT,
  );
  return rels;
}

/** A target relative to its source's folder, or absolute from the archive's root (`/xl/…`). */
function resolve(from: string, target: string): string {
  let name = target.replace(/\\/g, '/');
  try {
    name = decodeURI(name);
  } catch {
    // a stray % is a character of the name
  }
  return posix.normalize(name.startsWith('/') ? name.slice(1) : posix.join(from, name)).replace(/^(\.\.\/)+/, '');
}

/** The relationship id attribute under whatever prefix the writer bound the namespace to. */
function relId(a: Record<string, string>): string | undefined {
  if (a['r:id'] !== undefined) return a['r:id'];
  for (const [k, v] of Object.entries(a)) if (k.endsWith(':id')) return v;
  return undefined;
}
