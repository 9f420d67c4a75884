// The JUnit XML a CI server reads (issue 27 item 12): a value cannot forge a row line in a
// failure's text, an empty field is not printed as `field=`, and the document is valid against
// Apache Ant's schema (which requires every test case's time) as well as ours.
import { expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { junitXml } from '../../src/report/render-junit.js';
import { buildRunReport } from '../../src/report/run-report.js';
import { junitSchemaErrors } from '../helpers/junit-schema.js';

const at = new Date('2026-11-24T02:15:00Z');
const later = new Date('2026-11-24T02:15:03.250Z');

function xmlOf(rows: Array<{ id?: string; field?: string; detail: string; line: number }>): string {
  const c = createCollector();
  for (const r of rows)
    c.record({ outcome: 'invalid', resource: 'deal', file: 'deals.csv', line: r.line, externalId: r.id, field: r.field, message: 'INVALID', detail: r.detail });
  c.record({ outcome: 'accepted', resource: 'account', file: 'accounts.csv', line: 2, message: 'ACCEPTED', detail: '' });
  return junitXml(buildRunReport({ runId: '20261124T021500Z-abcd', mode: 'validate', startedAt: at, endedAt: later }, c), 'ci-7');
}

/** The text of each <failure>, unescaped as an XML reader gives it. */
const failureTexts = (xml: string) =>
  [...xml.matchAll(/<failure[^>]*>([^<]*)<\/failure>/g)].map((m) =>
    m[1]!
      .replace(/&#13;/g, '\r')
      .replace(/&#10;/g, '\n')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&'),
  );

test('a CR or LF in an id, a field or a detail cannot forge a row line: each row is one line', async () => {
  const forged = 'deals.csv:99  externalId=FORGED  field=amount  INVALID: amount: forged';
  const xml = xmlOf([
    { id: `D1\n${forged}`, field: 'amount.currency', detail: `amount.currency: "USX" is not a code\r\n${forged}`, line: 2 },
    { id: 'D2', field: `isWon\r${forged}`, detail: 'isWon: "maybe" is not true or false', line: 3 },
  ]);
  const lines = failureTexts(xml).flatMap((t) => t.split(/\r\n|\r|\n/).filter(Boolean));
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line).toMatch(/^deals\.csv:[23] {2}externalId=D[12]/);
  expect(lines[0]).toContain('D1\\ndeals.csv:99');
  expect(await junitSchemaErrors(xml)).toEqual([]);
});

test('an empty field is not printed; every test case has a time; valid against the Ant schema and ours', async () => {
  const xml = xmlOf([{ id: 'D1', field: '', detail: 'whole batch refused', line: 2 }]);
  expect(xml).not.toContain('field=');
  expect(xml).toContain('deals.csv:2  externalId=D1  INVALID: whole batch refused');
  const cases = xml.match(/<testcase [^>]*>/g)!;
  expect(cases.length).toBeGreaterThan(2);
  for (const c of cases) expect(c).toMatch(/ time="\d+(\.\d+)?"/);
  expect(await junitSchemaErrors(xml)).toEqual([]);
});

test('counts agree with their noun (item 13): 1 row read', () => {
  expect(xmlOf([{ id: 'D1', field: 'x', detail: 'x: bad', line: 2 }])).toContain('1 row read: 0 valid, 0 rejected, 1 invalid, 0 skipped');
});
