// Workbooks whose container other readers open and batch-sync refused (issue 34): bytes after the
// zip's end-of-central-directory record (item 3), XML parts in UTF-16 (item 4). Each made from a
// normal workbook (fixtures/xlsx/deals.xlsx) the way such files come about, and read through
// openSource as a run reads it: the same rows as the workbook they were made from.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { openSource } from '../../src/read/open.js';
import type { SourceRecord } from '../../src/read/types.js';
import { openWorkbookZip } from '../../src/read/xlsx/workbook-zip.js';
import { rewriteWorkbook } from '../helpers/xlsx-rewrite.js';

const dir = mkdtempSync(join(tmpdir(), 'batch-sync-xlsx-container-'));
const DEALS = join(__dirname, '../../fixtures/xlsx/deals.xlsx');
let n = 0;
const fresh = () => join(dir, `w${++n}.xlsx`);

async function read(file: string) {
  const source = await openSource(file);
  const records: SourceRecord[] = [];
  for await (const r of source.records) records.push(r);
  const rows = records.map((r) => (r.kind === 'row' ? [r.line, ...r.cells!, r.types] : [r.line, r.kind]));
  return { source, rows, header: source.header, warnings: source.warnings.map((w) => w.message) };
}

async function refusal(file: string): Promise<string> {
  const err = await read(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return (err as Error).message.replace(`${file}: `, '');
}

/** A copy of `file` with `bytes` after its end. */
function withTrailing(file: string, bytes: Buffer): string {
  const out = fresh();
  copyFileSync(file, out);
  appendFileSync(out, bytes);
  return out;
}

describe('bytes after the end of the archive (item 3)', () => {
  const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

  it.each([
    // a download that left a line of the server's output after the file
    ['a line of text', Buffer.from('\r\n<!-- served by cache-7 in 12 ms -->\r\n')],
    // a file padded to a block size (a disk image, a transfer in fixed blocks)
    ['4,000 zero bytes', Buffer.alloc(4000)],
    // more than yauzl looks back for the record (a comment's 65,535 bytes and the record's 22)
    ['100,000 bytes of noise', Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251))],
    // noise holding the record's signature, as a copy of the record itself would
    ['noise holding the signature', Buffer.concat([Buffer.from('xx'), EOCD, Buffer.alloc(30, 1), EOCD, Buffer.alloc(18)])],
  ])('%s: read as the workbook itself', async (_, bytes) => {
    const plain = await read(DEALS);
    const trailing = await read(withTrailing(DEALS, bytes));
    expect(trailing.header).toEqual(plain.header);
    expect(trailing.rows).toEqual(plain.rows);
    expect(trailing.rows.length).toBeGreaterThan(3);
    // said once, with the count
    expect(trailing.warnings.filter((w) => w.includes("follow the zip archive's end"))).toEqual([
      `${bytes.length.toLocaleString('en-US')} bytes follow the zip archive's end (a download with something appended?): not read`,
    ]);
    expect(plain.warnings.join('\n')).not.toContain("zip archive's end");
    const zip = await openWorkbookZip(withTrailing(DEALS, bytes));
    expect(zip.trailingBytes).toBe(bytes.length);
    zip.close();
  });

  it('a workbook cut short (no end record) is still refused as a damaged archive, after bytes were appended too', async () => {
    const whole = readFileSync(DEALS);
    const cut = fresh();
    writeFileSync(cut, whole.subarray(0, whole.length - 30));
    expect(await refusal(cut)).toMatch(/^not an \.xlsx workbook: a damaged zip archive \(/);
    const cutThenPadded = withTrailing(cut, Buffer.alloc(2000));
    expect(await refusal(cutThenPadded)).toMatch(/^not an \.xlsx workbook: a damaged zip archive \(/);
  });

  it('a zip bomb followed by bytes is still refused from its sizes', async () => {
    const bomb = withTrailing(join(__dirname, '../../fixtures/xlsx/bad/bomb.xlsx'), Buffer.from('trailing\n'));
    expect(await refusal(bomb)).toMatch(/would inflate to \d+ bytes from \d+ \(\d+ times\): refused as a possible zip bomb$/);
  });

  it('a part whose CRC-32 differs is still refused, naming it, with bytes after the archive', async () => {
    const damaged = await rewriteWorkbook(DEALS, fresh(), (_name, bytes) => bytes, { corrupt: 'xl/worksheets/sheet1.xml' });
    expect(await refusal(withTrailing(damaged, Buffer.alloc(100)))).toMatch(/its part xl\/worksheets\/sheet1\.xml is damaged/);
  });
});

describe('XML parts in UTF-16 (item 4)', () => {
  /** Every XML part re-encoded, its declaration naming `declared` (none: the declaration left without one). */
  const utf16 = (encoding: 'utf-16be' | 'utf-16le', bom: boolean, declared: string | undefined) => (name: string, bytes: Buffer) => {
    if (!/\.(xml|rels)$/.test(name)) return bytes;
    let text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    text = text.replace(/^<\?xml[^?]*\?>/, (decl) =>
      declared === undefined ? decl.replace(/\s+encoding="[^"]*"/, '') : decl.replace(/encoding="[^"]*"/, `encoding="${declared}"`),
    );
    return iconv.encode(text, encoding, { addBOM: bom });
  };

  it.each([
    ['UTF-16BE with a BOM, declared UTF-16', 'utf-16be', true, 'UTF-16'],
    ['UTF-16BE without a BOM, declared UTF-16BE', 'utf-16be', false, 'UTF-16BE'],
    ['UTF-16BE without a BOM, declared UTF-16', 'utf-16be', false, 'UTF-16'],
    ['UTF-16LE with a BOM, declared UTF-16', 'utf-16le', true, 'UTF-16'],
    ['UTF-16LE without a BOM, declared UTF-16LE', 'utf-16le', false, 'UTF-16LE'],
    ['UTF-16LE with a BOM, no encoding declared', 'utf-16le', true, undefined],
  ] as const)('%s: read as the UTF-8 workbook', async (_, encoding, bom, declared) => {
    const plain = await read(DEALS);
    const file = await rewriteWorkbook(DEALS, fresh(), utf16(encoding, bom, declared));
    const wide = await read(file);
    expect(wide.header).toEqual(plain.header);
    expect(wide.rows).toEqual(plain.rows);
    expect(wide.rows.length).toBeGreaterThan(3);
  });

  it('one part in UTF-16 among UTF-8 ones (the shared strings)', async () => {
    const plain = await read(DEALS);
    const file = await rewriteWorkbook(DEALS, fresh(), (name, bytes) =>
      name === 'xl/sharedStrings.xml' ? utf16('utf-16be', false, 'UTF-16BE')(name, bytes) : bytes,
    );
    expect((await read(file)).rows).toEqual(plain.rows);
  });

  it('a UTF-16 part that is not well-formed is still broken XML, named as such', async () => {
    const file = await rewriteWorkbook(DEALS, fresh(), (name, bytes) =>
      name === 'xl/worksheets/sheet1.xml' ? iconv.encode(bytes.toString('utf8').replace('</sheetData>', '</sheetDat>'), 'utf-16le', { addBOM: true }) : bytes,
    );
    expect(await refusal(file)).toMatch(/broken XML/);
  });
});
