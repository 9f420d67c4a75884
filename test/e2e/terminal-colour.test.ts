// Colour follows what the user and the terminal say, in every line: the spinner, the report and the
// verdict. NO_COLOR (no-color.org), TERM=dumb and --no-color turn it off; FORCE_COLOR turns it on
// (and wins over NO_COLOR: it is the more explicit of the two). Run on a real pseudo-terminal,
// asserting what the screen receives.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SALES_PROFILES_CSV, dealsCsv, tempFiles } from '../helpers/cli.js';
import { startCliOnPty } from '../helpers/pty.js';

/** A colour or weight (SGR), as opposed to the cursor moves a spinner needs. */
const SGR = /\u001b\[[0-9;]*m/;
const CLEAR_LINE = /\u001b\[2K|\u001b\[1G|\r/;

function pushOnPty(env: Record<string, string | undefined>, extra: string[] = []) {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(3000) });
  // no colour variable inherited from the test's own environment: only what each case sets
  // (CI too: chalk gives a terminal no colour when CI is set, as it is in CI's own run of this test)
  const clean = { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color', ...env } as unknown as Record<string, string>;
  return startCliOnPty(['push', '--sandbox', ...extra, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], { cols: 100, rows: 30, env: clean }).result;
}

describe('colour on a terminal', () => {
  test.each([
    ['NO_COLOR=1', { NO_COLOR: '1' }, []],
    ['--no-color', {}, ['--no-color']],
    ['TERM=dumb', { TERM: 'dumb' }, []],
    ['FORCE_COLOR=0', { FORCE_COLOR: '0' }, []],
  ])(
    '%s: no colour in any line, the spinner included',
    async (_, env, extra) => {
      const { code, output } = await pushOnPty(env, extra);
      expect(code, output).toBe(0);
      expect(output).toMatch(/OK: all 3002 rows accepted\./);
      expect(output).not.toMatch(SGR);
    },
    60_000,
  );

  test('NO_COLOR still draws the spinner in place (colour off is not progress off)', async () => {
    const { output } = await pushOnPty({ NO_COLOR: '1' });
    expect(output).toMatch(CLEAR_LINE);
  }, 60_000);

  test('FORCE_COLOR=1 wins over NO_COLOR: the verdict is coloured', async () => {
    const { code, output } = await pushOnPty({ FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(code, output).toBe(0);
    expect(output).toMatch(/\u001b\[32m[^\n]*OK: all 3002 rows accepted/);
  }, 60_000);

  test('with nothing said, a colour terminal gets colour', async () => {
    const { output } = await pushOnPty({});
    expect(output).toMatch(SGR);
  }, 60_000);
});
