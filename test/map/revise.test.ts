// init's revision after its check (map/propose/revise.ts) and the candidates it falls back on
// (map/propose/candidates.ts): pure, the check's counts made up here.
import { describe, expect, test } from 'vitest';
import { fieldCandidates } from '../../src/map/propose/candidates.js';
import { columnFacts } from '../../src/map/propose/ids.js';
import { type CheckedField, reviseProposal } from '../../src/map/propose/revise.js';
import type { LeafKind } from '../../src/map/target-fields.js';

const kinds: Record<string, LeafKind> = { isWon: 'boolean', 'amount.value': 'decimal', title: 'string', closeDate: 'date' };
const kindOf = (path: string) => kinds[path];
const counts = (checked: number, fields: Record<string, CheckedField>, lookupsFailed: { field: string; reason: string }[] = []) => ({
  checked,
  fields: new Map(Object.entries(fields)),
  lookupsFailed,
});

describe('reviseProposal', () => {
  test('a field invalid in most rows where it is filled takes its next candidate, and says why', () => {
    const status = { column: 'Status', map: { Won: true }, otherwise: false };
    const r = reviseProposal(
      { isWon: { column: 'Won' } },
      { isWon: [status, { column: 'Ganho em', map: {}, otherwise: true, default: false }] },
      counts(300, { isWon: { invalid: 100, empty: 200, filled: 100, reason: '"2024-03-01" is not a yes/no value' } }),
      kindOf,
    );
    expect(r.changed).toBe(true);
    expect(r.fields.isWon).toEqual(status);
    expect(r.candidates.isWon).toHaveLength(1);
    expect(r.notes).toEqual([
      'isWon: "Won" is invalid in 100 of 100 rows checked where it is filled ("2024-03-01" is not a yes/no value); "Status" (value map: "Won" → true, otherwise false) is taken instead',
    ]);
  });

  test('with no candidate left, the field becomes a placeholder whose reason is what the check found', () => {
    const r = reviseProposal(
      { closeDate: { column: 'Cierre' } },
      { closeDate: [] },
      counts(50, { closeDate: { invalid: 40, empty: 0, filled: 50, reason: 'not a date' } }),
      kindOf,
    );
    expect(r.fields.closeDate).toEqual({ const: '<FILL IN: value or column for closeDate>' });
    expect(r.fillIn).toEqual([{ path: 'fields.closeDate.const', reason: '"Cierre" is invalid in 40 of 50 rows checked where it is filled (not a date)' }]);
  });

  test('an optional field with no candidate left is left out, not a placeholder that blocks every row', () => {
    const r = reviseProposal(
      { closeDate: { column: 'closingdate' }, title: { column: 'Name' } },
      { closeDate: [] },
      counts(300, { closeDate: { invalid: 290, empty: 0, filled: 300, reason: 'not a date' } }),
      kindOf,
      [],
      (path) => path !== 'closeDate',
    );
    expect(r.fields).toEqual({ title: { column: 'Name' } });
    expect(r.fillIn).toEqual([]);
    expect(r.notes).toEqual([
      'closeDate: "closingdate" is invalid in 290 of 300 rows checked where it is filled (not a date); it is left out (the field is optional): map it again with a format that reads the column to send it',
    ]);
  });

  test('a field invalid in a few rows keeps its column: the rows are counted, not the mapping changed', () => {
    const r = reviseProposal(
      { closeDate: { column: 'Cierre' } },
      { closeDate: [{ column: 'Otra' }] },
      counts(300, { closeDate: { invalid: 3, empty: 0, filled: 300 } }),
      kindOf,
    );
    expect(r.changed).toBe(false);
    expect(r.fields.closeDate).toEqual({ column: 'Cierre' });
  });

  test('a field refused where its cell is empty gets a default its kind allows (0, false) and a check line; text gets the line alone', () => {
    const r = reviseProposal(
      { 'amount.value': { column: 'Amount' }, title: { column: 'Deal Name' } },
      {},
      counts(11_583, {
        'amount.value': { invalid: 0, empty: 1042, firstEmptyLine: 220, filled: 10_541 },
        title: { invalid: 0, empty: 2, firstEmptyLine: 9, filled: 11_581 },
      }),
      kindOf,
    );
    expect(r.fields['amount.value']).toEqual({ column: 'Amount', default: '0' });
    expect(r.fields.title).toEqual({ column: 'Deal Name' });
    expect(r.notes).toEqual([
      'amount.value: "Amount" is empty in 1,042 of 11,583 rows checked (the first on line 220): those are sent as "0"; remove "default" to have them refused instead',
      'title: "Deal Name" is empty in 2 of 11,583 rows checked (the first on line 9): those rows are refused; give the field a "default" to send them',
    ]);
  });

  test('a lookup that could not load (its key repeats) is taken out of every field that reads its file', () => {
    const lookup = { file: 'people.csv', key: 'Nome', value: 'ID' };
    const r = reviseProposal(
      { ownerExternalId: { column: 'Proprietário', lookup }, agentExternalId: { column: 'Proprietário', lookup } },
      {},
      counts(10, {}, [{ field: 'ownerExternalId', reason: 'people.csv has two ID values for the Nome "Ana"' }]),
      kindOf,
    );
    expect(r.fields).toEqual({ ownerExternalId: { column: 'Proprietário' }, agentExternalId: { column: 'Proprietário' } });
    expect(r.notes).toEqual(['ownerExternalId: not looked up in people.csv: people.csv has two ID values for the Nome "Ana"; the column is sent as it is']);
  });

  test('an id that repeats in over 1% of the rows checked takes the next unique column; a few repeats only say so', () => {
    const many = reviseProposal(
      { externalId: { column: 'Who Id Id' } },
      { externalId: [{ column: 'EVENTID' }, { rowHash: true }] },
      { ...counts(300, {}), idRepeats: { rows: 100, firstLine: 202, example: '5001' } },
      kindOf,
      [{ key: 'eventid', column: 'EVENTID', type: 'string' }],
    );
    expect(many.fields.externalId).toEqual({ column: 'EVENTID' });
    expect(many.customFields).toEqual([]);
    expect(many.notes).toEqual([
      'externalId: "Who Id Id" repeats an earlier row\'s value in 100 of 300 rows checked (the first on line 202, "5001"); "EVENTID" is taken instead',
    ]);
    const few = reviseProposal(
      { externalId: { column: 'Deal ID' } },
      { externalId: [{ rowHash: true }] },
      { ...counts(1000, {}), idRepeats: { rows: 3, firstLine: 17, example: 'D9' } },
      kindOf,
    );
    expect(few.changed).toBe(false);
    expect(few.fields.externalId).toEqual({ column: 'Deal ID' });
    expect(few.notes).toEqual([
      'externalId: "Deal ID" repeats an earlier row\'s value in 3 of 1,000 rows checked (the first on line 17, "D9"): push sends the first row of each id and refuses the others as DUPLICATE',
    ]);
  });
});

test('a custom field typed from the sample as a number, holding text further down, is sent as text', () => {
  const customs = [{ key: 'score', name: 'Score', type: 'number', column: 'Score' }];
  const r = reviseProposal({}, {}, counts(300, { 'customFields.score': { invalid: 50, empty: 0, reason: '"high" is not a number' } }), kindOf, customs);
  expect(r.customFields).toEqual([{ ...customs[0], type: 'string' }]);
  expect(r.notes).toEqual(['customFields.score: "Score" is not a number in 50 of 300 rows checked ("high" is not a number): it is sent as text']);
  expect(customs[0]!.type).toBe('number');
});

describe('fieldCandidates', () => {
  const rows = [
    { 'Ganho em': '2024-01-02', Status: 'Ganho', Valor: '10', 'Valor total': '12' },
    { 'Ganho em': '', Status: 'Perdido', Valor: 'x', 'Valor total': '3' },
    { 'Ganho em': '', Status: 'Aberto', Valor: '5', 'Valor total': '' },
  ];
  const header = Object.keys(rows[0]!);
  const facts = (c: string) => columnFacts(rows, c);

  test("isWon's candidates: the status column's won words, then the won date (filled → won)", () => {
    const c = fieldCandidates('deal', header, { isWon: { column: 'Ganho em' } }, facts);
    expect(c.isWon).toEqual([
      { column: 'Status', map: { Ganho: true }, otherwise: false },
      { column: 'Ganho em', map: {}, otherwise: true, default: false },
    ]);
  });

  test('another column whose name matched the field, never one another field reads', () => {
    expect(fieldCandidates('deal', header, { 'amount.value': { column: 'Valor' } }, facts)['amount.value']).toEqual([{ column: 'Valor total' }]);
    expect(fieldCandidates('deal', header, { 'amount.value': { column: 'Valor' }, title: { column: 'Valor total' } }, facts)['amount.value']).toEqual([]);
  });

  // HubSpot's "All deals": three columns named "… in company currency" hold amounts ("0.0"); the first
  // was proposed, failed on every row, and each next one failed the same way until the rounds ran out
  test('a currency field takes no column whose values are amounts, so it ends as a placeholder', () => {
    const hs = [
      { Amount: '10', 'Amount in company currency': '0.0', 'Weighted amount in company currency': '1.5', 'Deal currency code': '' },
      { Amount: '', 'Amount in company currency': '12.0', 'Weighted amount in company currency': '', 'Deal currency code': '' },
    ];
    const c = fieldCandidates('deal', Object.keys(hs[0]!), { 'amount.currency': { column: 'Amount in company currency' } }, (col) => columnFacts(hs, col));
    expect(c['amount.currency']).toEqual([]);
    const coded = [{ 'Amount in company currency': '0.0', 'Deal currency code': 'BRL' }];
    const d = fieldCandidates('deal', Object.keys(coded[0]!), { 'amount.currency': { column: 'Amount in company currency' } }, (col) =>
      columnFacts(coded, col),
    );
    expect(d['amount.currency']).toEqual([{ column: 'Deal currency code' }]);
  });
});
