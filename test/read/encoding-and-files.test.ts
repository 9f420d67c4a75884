// Encodings and files that cannot be read at all.

import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../src/errors.js';
import { openSource } from '../../src/read/open.js';
import { errorOf, readAll, tempDir } from './helpers.js';

const file = tempDir();
const cell = async (path: string, options = {}) => {
  const { records, detected, warnings } = await readAll(path, options);
  const first = records[0]!;
  return { value: first.kind === 'row' ? first.row.texto : undefined, detected, warnings };
};

describe('encodings', () => {
  const text = 'id;texto\n1;Preço “ótimo” – 10€ ação\n';

  it('detects Windows-1252 from the bytes and decodes 0x80–0x9F right, with a warning', async () => {
    const { value, detected, warnings } = await cell(file('w.csv', iconv.encode(text, 'windows-1252')));
    expect(value).toBe('Preço “ótimo” – 10€ ação');
    expect(detected.encoding).toBe('windows-1252');
    expect(warnings[0]).toMatch(/not valid UTF-8/);
  });

  it('reads latin1 as Windows-1252 when told', async () => {
    const { value, warnings } = await cell(file('l.csv', iconv.encode(text, 'windows-1252')), { encoding: 'latin1' });
    expect(value).toBe('Preço “ótimo” – 10€ ação');
    expect(warnings).toEqual([]);
  });

  it.each(['utf-16le', 'utf-16be'])('reads %s with a BOM', async (enc) => {
    const { value, detected } = await cell(file(`${enc}.csv`, iconv.encode(text, enc, { addBOM: true })));
    expect(value).toBe('Preço “ótimo” – 10€ ação');
    expect(detected.encoding).toBe(enc);
  });

  it('a UTF-8 BOM wins over a contrary --encoding, with a note for --verbose (not a warning)', async () => {
    const path = file('bom.csv', '\uFEFF' + text);
    const { value, warnings } = await cell(path, { encoding: 'windows-1252' });
    expect(value).toBe('Preço “ótimo” – 10€ ação');
    expect(warnings).toEqual(['starts with a UTF-8 byte-order mark: read as UTF-8, not the windows-1252 declared']);
    const opened = await openSource(path, { encoding: 'windows-1252' });
    expect(opened.warnings.map((w) => w.note)).toEqual([true]);
  });

  it('invalid UTF-8 in a file declared UTF-8 fails naming the line and suggesting windows-1252 (a detected one: mixed-encodings.test.ts)', async () => {
    const head = 'id;texto\n' + 'a;b\n'.repeat(20_000);
    const path = file('late.csv', Buffer.concat([Buffer.from(head), iconv.encode('x;Jos\u00e9\n', 'latin1')]));
    const err = await errorOf(readAll(path, { encoding: 'utf-8' }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(new RegExp(`^${path}:20002: not valid UTF-8`));
    expect(err.suggestion).toContain('--encoding windows-1252');
    const { records } = await readAll(path, { encoding: 'windows-1252' });
    const last = records.at(-1)!;
    expect(last.kind === 'row' && last.row.texto).toBe('José');
  });

  it('a multi-byte character split across chunks is fine', async () => {
    const path = file('split.csv', 'id;texto\n' + 'é;ção€\n'.repeat(100_000));
    const { records } = await readAll(path);
    expect(records).toHaveLength(100_000);
    expect(records.every((r) => r.kind === 'row' && r.row.texto === 'ção€')).toBe(true);
  });

  it('rejects an unknown encoding as a usage error', async () => {
    const err = await errorOf(readAll(file('u.csv', text), { encoding: 'klingon' }));
    expect(err).toBeInstanceOf(UsageError);
  });
});

describe('files that cannot be read', () => {
  it('missing file', async () => {
    const err = await errorOf(readAll('/nonexistent/deals.csv'));
    expect(err.message).toBe('/nonexistent/deals.csv: no such file');
  });

  it('a directory', async () => {
    const dir = join(file('x', ''), '..', 'sub');
    mkdirSync(dir);
    expect((await errorOf(readAll(dir))).message).toMatch(/is a directory/);
  });

  it.skipIf(process.getuid?.() === 0)('permission denied', async () => {
    const path = file('locked.csv', 'a\n1\n');
    chmodSync(path, 0o000);
    expect((await errorOf(readAll(path))).message).toBe(`${path}: permission denied`);
  });

  it('whitespace only is empty', async () => {
    expect((await errorOf(readAll(file('ws.csv', '\n\r\n  \n')))).message).toMatch(/file is empty/);
  });

  it('UTF-16 without a BOM is called binary, with a hint', async () => {
    const err = await errorOf(readAll(file('nobom.csv', iconv.encode('id;texto\n1;abc\n', 'utf-16le'))));
    expect(err.message).toMatch(/looks binary/);
    expect(err.suggestion).toContain('--encoding utf-16le');
  });
});
