// The step summary as GitHub renders it (GFM; micromark with its GFM extension follows cmark-gfm's
// spec and tests): values from the export stay text. Issue 27 item 11: an export value that is a URL
// became a link on the job's page.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { buildRunReport } from '../../src/report/run-report.js';
import { stepSummary } from '../../src/report/step-summary.js';

const render = (md: string) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });

function summaryWith(values: string[], file = 'deals.csv'): string {
  const c = createCollector();
  for (const [i, v] of values.entries())
    c.record({ outcome: 'invalid', resource: 'deal', file, line: i + 2, externalId: v, field: `f${i}`, message: 'INVALID', detail: `f${i}: "${v}" is wrong` });
  const at = new Date('2026-11-24T02:15:00Z');
  return stepSummary(buildRunReport({ runId: '20261124T021500Z-abcd', mode: 'validate', startedAt: at, endedAt: at }, c), { cwd: '/ws', workspace: '/ws' }, 1);
}

test.each([
  'https://evil.example/login',
  'http://evil.example',
  'www.evil.example/x',
  'WWW.EVIL.EXAMPLE',
  'ana@evil.example',
  'mailto:ana@evil.example',
  'xmpp:ana@evil.example',
  'ftp://evil.example/f',
  '(https://evil.example)',
  '*www.evil.example*',
])('an export value %j stays text in the step summary', (value) => {
  const html = render(summaryWith([value], `${value}.csv`));
  expect(html).not.toMatch(/<a /);
  // still there, readable, as the value itself
  expect(html).toContain(value.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  // the table is whole: one row per group
  expect(html.match(/<tr>/g)).toHaveLength(4);
});

test('Markdown and HTML in a value stay text too', () => {
  const html = render(summaryWith(['<img src=x onerror=alert(1)>', '[click](https://evil.example)', '`code` | pipe', '**bold**']));
  const tables = html.slice(html.indexOf('<table>'));
  expect(tables).not.toMatch(/<a |<img|<code>|<strong>/);
  expect(tables.match(/<tr>/g)).toHaveLength(7);
  expect(html).toContain('[click](https://evil.example)');
});

test('counts agree with their noun (issue 27 item 13): 1 row, 1 more reason group', () => {
  const values = Array.from({ length: 11 }, (_, i) => `v${i}`);
  const md = summaryWith(values.slice(0, 1));
  expect(md).toContain('### batch-sync validate: 1 row not valid');
  const c = createCollector();
  for (let i = 0; i < 11; i++)
    c.record({ outcome: 'invalid', resource: 'deal', file: 'd.csv', line: i + 2, field: `f${i}`, message: 'INVALID', detail: `field${i} is wrong` });
  const at = new Date('2026-11-24T02:15:00Z');
  const eleven = stepSummary(buildRunReport({ runId: 'r', mode: 'validate', startedAt: at, endedAt: at }, c), { cwd: '/ws' }, 1);
  expect(eleven).toContain('1 more reason group is in the full report.');
});
