import { describe, expect, test } from 'vitest';
import { ANSWER_STYLES } from '../src/contract/answer-styles.js';
import { DEFAULT_SUCCESS_CODES } from '../src/send/answers.js';
import { readAnswer, type AnswerReading } from '../src/send/attribute-errors.js';

const ids = ['D-1', 'D-2', 'D-3', 'D-4'];
const err = (detail: string, message = 'VALIDATION_ERROR') => ({ message, detail });
const named = { ...ANSWER_STYLES.named, successCodes: DEFAULT_SUCCESS_CODES };
const documented = { ...ANSWER_STYLES.documented, successCodes: DEFAULT_SUCCESS_CODES };
const answer = (error: unknown[], success: unknown, code = 200, status = 'SUCCESS') => ({ data: { code, success, error }, status });
const rejected = (r: AnswerReading) => (r.kind === 'read' ? [...r.perItem.keys()].sort() : r.kind);

describe('readAnswer', () => {
  test('by the leading index and label', () => {
    const r = readAnswer(answer([err('items[2] externalId=D-3: amount.currency: "USX" is not an ISO-4217 currency code')], 3), ids, named);
    expect(rejected(r)).toEqual([2]);
  });
  test('by the one leading externalId label; a later label or a bare id is not looked at', () => {
    expect(rejected(readAnswer(answer([err('externalId=D-4: same name as externalId=D-1')], 3), ids, named))).toEqual([3]);
    expect(rejected(readAnswer(answer([err('items[0]: same name as D-2')], 3), ids, named))).toEqual([0]);
  });
  test('a bare word naming another item is not an attribution (16.1)', () => {
    const r = readAnswer(answer([err('same name as D-2')], 3), ids, named);
    expect(r.kind).toBe('unresolved');
  });
  test('an index and a label that disagree name no item', () => {
    expect(readAnswer(answer([err('items[0] externalId=D-2: title: is required')], 3), ids, named).kind).toBe('unresolved');
  });
  test('an id that is or begins with a double quote, written as it is, names its item (the property test found `externalId=": …`)', () => {
    const quoted = ['"', '"A', 'B'];
    const detail = (i: number) => `items[${i}] externalId=${quoted[i]}: ownerExternalId: "ana" does not exist as a sales profile`;
    expect(rejected(readAnswer(answer([err(detail(0)), err(detail(1))], 1), quoted, named))).toEqual([0, 1]);
    // quoted the JSON way, as before
    expect(rejected(readAnswer(answer([err('externalId="B": title: is required')], 2), quoted, named))).toEqual([2]);
  });
  test('"ACME" is not read out of externalId=ACME 2', () => {
    expect(rejected(readAnswer(answer([err('externalId=ACME 2: owner missing')], 1), ['ACME', 'ACME 2'], named))).toEqual([1]);
  });
  test('status or data.code saying failure: failed (16.2)', () => {
    expect(readAnswer(answer([], 4, 200, 'ERROR'), ids, named).kind).toBe('failed');
    expect(readAnswer(answer([], 4, 500), ids, documented).kind).toBe('failed');
    expect(readAnswer(answer([], 100, 201), ids, documented).kind).toBe('read');
  });
  test('success equal to the batch size plus an element naming no item: a warning (16.3)', () => {
    const r = readAnswer(answer([err('deprecated field ignored', 'WARNING')], 4), ids, named);
    expect(r).toMatchObject({ kind: 'read', warnings: [{ message: 'WARNING' }] });
    expect(rejected(r)).toEqual([]);
  });
  test('success read as a count: a count that disagrees is unresolved, one that is no count unverifiable', () => {
    expect(readAnswer(answer([], 3), ids, named).kind).toBe('unresolved');
    expect(readAnswer(answer([], '4'), ids, named).kind).toBe('unverifiable');
    expect(readAnswer(answer([], 2.5), ids, named).kind).toBe('unverifiable');
  });
  test('documented answers: success informational; an error naming no item leaves the batch unresolved, unless it has one item', () => {
    expect(rejected(readAnswer(answer([], 100, 201), ids, documented))).toEqual([]);
    expect(readAnswer(answer([err('Invalid currency code (ISO-4217)')], 100, 201), ids, documented).kind).toBe('unresolved');
    expect(rejected(readAnswer(answer([err('Invalid currency code (ISO-4217)')], 100, 201), ['D-1'], documented))).toEqual([0]);
  });
  test('an index past the batch, or an element of unexpected shape, is unverifiable', () => {
    expect(readAnswer(answer([err('items[9]: x')], 3), ids, named)).toMatchObject({
      kind: 'unverifiable',
      reason: expect.stringMatching(/points past the batch/),
    });
    expect(readAnswer(answer([{ code: 3 }], 3), ids, named)).toMatchObject({ kind: 'unverifiable', reason: expect.stringMatching(/unexpected shape/) });
    expect(readAnswer(answer(['boom'], 3), ids, named).kind).toBe('unverifiable');
  });
});

describe('the reason of an answer whose errors name no item', () => {
  const owners = ['ana-souza', 'bruno-diaz', 'camila-rojas', 'diego-lopez'];
  const errors = owners.flatMap((o) => [
    err(`ownerExternalId: "${o}" does not exist as a sales profile`),
    err(`agentExternalId: "${o}" does not exist as a sales profile`),
  ]);
  const reason = (r: AnswerReading) => (r.kind === 'unresolved' ? r.reason : '');

  test('quotes whole errors and counts the rest, never a detail cut mid-word ("ca)', () => {
    const text = reason(readAnswer(answer(errors, 100, 201), ids, documented));
    expect(text).toMatch(/^8 errors name no item of the 4: VALIDATION_ERROR ownerExternalId: "ana-souza" does not exist as a sales profile; /);
    // every error quoted is whole: its quotes balanced, and the list ends with how many were left out
    expect(text.split('"').length % 2).toBe(1);
    expect(text).toMatch(/ \(and \d+ more\)$/);
    expect(text.length).toBeLessThanOrEqual(260);
  });
  test('a short list is quoted whole', () => {
    const text = reason(readAnswer(answer(errors.slice(0, 2), 100, 201), ids, documented));
    expect(text).toBe(
      '2 errors name no item of the 4: VALIDATION_ERROR ownerExternalId: "ana-souza" does not exist as a sales profile; VALIDATION_ERROR agentExternalId: "ana-souza" does not exist as a sales profile',
    );
  });
  test('one long error is cut at a word, marked with …', () => {
    const long = `ownerExternalId: ${'word '.repeat(80)}end`;
    const text = reason(readAnswer(answer([err(long)], 100, 201), ids, documented));
    expect(text).toMatch(/: VALIDATION_ERROR ownerExternalId: (word )+word…$/);
  });
});

describe('counts agree with their noun (issue 27 item 13)', () => {
  test('a one-item batch\'s success that is not a count: "the batch\'s 1 item"', () => {
    const r = readAnswer(answer([], 'yes'), ['D-1'], named);
    expect(r).toMatchObject({ kind: 'unverifiable' });
    expect((r as { reason: string }).reason).toContain("not a count of the batch's 1 item (");
  });
  test('"1 of 2 items carries no error"', () => {
    const r = readAnswer(answer([err('items[0] externalId=D-1: title: is required')], 0), ['D-1', 'D-2'], named);
    expect((r as { reason: string }).reason).toBe('data.success is 0 but 1 of 2 items carries no error');
  });
});
