// The report's traffic line (what a push's requests met) was about 110–120 characters whatever the
// terminal, so it wrapped on an 80-column one. It is fitted as the progress line is: to the
// terminal's width, or to 80 columns when stdout is no terminal (a pipe, a log); its words shorten
// first, then the least needed parts go, and the request count stays.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/doc-blocks.js';
import { spawnCli } from '../helpers/cli.js';
import { startCliOnPty } from '../helpers/pty.js';

const FILES = ['sales-profiles.csv', 'accounts.csv', 'deals.csv', 'activities.csv'].map((f) => join(ROOT, 'fixtures/canonical', f));
const trafficOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
    .find((l) => l.startsWith('requests: '));

test.each([100, 60])(
  'on a terminal of %i columns the traffic line fits it',
  async (cols) => {
    const run = startCliOnPty(['push', '--sandbox', ...FILES], { cols, rows: 30, killAfterMs: 60_000 });
    const { code, output } = await run.result;
    expect(code, output).toBe(0);
    const line = trafficOf(output);
    expect(line, output).toMatch(/^requests: \d+ \(0 (answered|×) 429, 0 retries\)/);
    expect(line!.length, line).toBeLessThanOrEqual(cols);
  },
  90_000,
);

test('not on a terminal: within 80 columns, the request count and the wait kept', async () => {
  const r = await spawnCli(['push', '--sandbox', ...FILES]);
  expect(r.code, r.stderr).toBe(0);
  const line = trafficOf(r.stdout);
  expect(line, r.stdout).toMatch(/^requests: \d+ \(0 (answered|×) 429, 0 retries\), 0\.0s waited/);
  expect(line!.length, line).toBeLessThanOrEqual(80);
});
