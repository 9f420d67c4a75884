// Real exports with rows above their header (issue 29.8): two German banks' CSV downloads,
// anonymised by the people who contributed them to another project (fixtures/outside/bank-csv-preamble,
// AGPL-3.0-or-later, byte for byte). Their header is where a person reading the file sees it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAll } from './helpers.js';

const DIR = join(__dirname, '../../fixtures/outside/bank-csv-preamble');
const at = (name: string) => join(DIR, name);

describe('bank exports with an account block above the header', () => {
  it('are the files as published (SHA256SUMS)', () => {
    for (const line of readFileSync(at('SHA256SUMS'), 'utf8').trim().split('\n')) {
      const [sum, name] = line.split(/\s+/);
      expect(
        createHash('sha256')
          .update(readFileSync(at(name!)))
          .digest('hex'),
        name,
      ).toBe(sum);
    }
  });

  it('DKB: "Girokonto";"DE…", "Kontostand vom …";"4.093,32 €" and blank lines above the 12-column header on line 5', async () => {
    const { detected, header, records, warnings } = await readAll(at('dkb.csv'));
    expect(detected).toEqual({ encoding: 'utf-8', delimiter: ';', headerRow: 5 });
    expect(header).toEqual([
      'Buchungsdatum',
      'Wertstellung',
      'Status',
      'Zahlungspflichtige*r',
      'Zahlungsempfänger*in',
      'Verwendungszweck',
      'Umsatztyp',
      'IBAN',
      'Betrag (€)',
      'Gläubiger-ID',
      'Mandatsreferenz',
      'Kundenreferenz',
    ]);
    expect(records.map((r) => [r.kind, r.line])).toEqual([6, 7, 8, 9, 10, 11, 12, 13].map((line) => ['row', line]));
    expect(records[0]?.kind === 'row' && records[0].row['Betrag (€)']).toBe('200');
    expect(warnings).toEqual([
      'the header is line 5, the first row whose names cover the 12 columns of the rows below it; passed over lines 1–4 above it (set the header row, --header-row or reader.headerRow, to choose another)',
    ]);
  });

  it('ING: a 12-line block (IBAN, customer, period, a sentence) above the 7-column header on line 13; its ragged row stays one unreadable row', async () => {
    const { detected, header, records, warnings } = await readAll(at('ing.csv'));
    expect(detected).toEqual({ encoding: 'windows-1252', delimiter: ';', headerRow: 13 });
    expect(header).toEqual(['Buchung', 'Wertstellungsdatum', 'Auftraggeber/Empfänger', 'Buchungstext', 'Verwendungszweck', 'Betrag', 'Währung']);
    expect(records).toHaveLength(20);
    expect(records.filter((r) => r.kind === 'unreadable').map((r) => [r.line, r.kind === 'unreadable' && r.reason])).toEqual([
      [22, 'has 6 cells, the header has 7'],
    ]);
    expect(warnings).toContain(
      'the header is line 13, the first row whose names cover the 7 columns of the rows below it; passed over lines 1–12 above it (set the header row, --header-row or reader.headerRow, to choose another)',
    );
  });

  it('ING with its balance line, the delimiter given: the header on line 14', async () => {
    const { detected, header, records } = await readAll(at('ing-mit-saldo.csv'), { delimiter: ';' });
    expect(detected.headerRow).toBe(14);
    expect(header).toHaveLength(7);
    expect(records).toHaveLength(20);
  });

  // Every transaction holds one decimal comma, and the `Saldo;66.331,90;EUR` line gives "," one more
  // line of agreement than ";" has (the first 30 lines vote): read as comma-separated until agreeing
  // lines were weighed by the cells they split into (two cells weigh half a line, seven six sevenths).
  it('ING with its balance line: ";" detected, the header on line 14', async () => {
    const { detected, header } = await readAll(at('ing-mit-saldo.csv'));
    expect(detected.delimiter).toBe(';');
    expect(detected.headerRow).toBe(14);
    expect(header).toHaveLength(7);
  });
});
