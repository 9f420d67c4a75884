// Waits for a rate limit shown as waits (issue 37.4), on a real pseudo-terminal: when a 429's
// Retry-After holds every request, the progress line says `waiting 4s for the rate limit (429)` and
// counts down, instead of a rows/s decaying to nothing; the ETA stays on the line; every frame fits
// the terminal's width.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv, tempFiles } from '../helpers/cli.js';
import { startCliOnPty } from '../helpers/pty.js';

const KEY = 'progress-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

const itemsIn = (req: RecordedRequest) => (JSON.parse(req.body.toString()).items as unknown[]).length;

/** Each redraw of the line, cursor and colour codes removed. */
function frames(output: string): string[] {
  return output
    .split(/\r|\n|\u001b\[\d*G/)
    .map((s) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
    .filter((s) => s.trim() !== '');
}

async function pushWithOne429(cols: number) {
  // the 16th request is refused with a Retry-After of 4 s; every other answer takes 60 ms
  let n = 0;
  server = await startServer([], {
    respond: (req) =>
      ++n === 16
        ? { status: 429, headers: { 'retry-after': '4' }, body: { message: 'Too Many Requests' } }
        : { status: 200, delayMs: 60, body: { data: { code: 200, success: itemsIn(req), error: [] }, status: 'SUCCESS' } },
  });
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(5000) });
  const run = startCliOnPty(['push', '--batch-size', '100', '--concurrency', '2', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    cols,
    rows: 30,
    killAfterMs: 60_000,
    env: {
      BATCH_SYNC_API_KEY: KEY,
      BATCH_SYNC_BASE_URL: server.url,
      BATCH_SYNC_ENGINE: process.env.BATCH_SYNC_ENGINE ?? 'simple',
      CI: undefined as unknown as string,
    },
  });
  const { code, output } = await run.result;
  expect(code, output.slice(-3000)).toBe(0);
  return frames(output).filter((l) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(l));
}

test.each([100, 60])(
  'at %i columns: the hold of a 429 is shown as a wait that counts down, with the ETA, within the width',
  async (cols) => {
    const shown = await pushWithOne429(cols);
    // at 60 columns the short form: `waiting 4s (rate limit)`
    const waiting = shown.filter((l) => /waiting \ds (for the rate limit \(429\)|\(rate limit\))/.test(l));
    expect(waiting.length, shown.join('\n')).toBeGreaterThan(2);
    // it counts down: the seconds shown fall
    const seconds = waiting.map((l) => Number(/waiting (\d)s/.exec(l)![1]));
    expect(seconds[0]!, waiting.join('\n')).toBeGreaterThan(seconds.at(-1)!);
    // a wait is not a rate: no rows/s beside it, and the time left stays
    for (const line of waiting) expect(line).not.toMatch(/rows\/s/);
    expect(
      waiting.some((l) => /ETA \d+s/.test(l)),
      waiting.join('\n'),
    ).toBe(true);
    for (const line of shown) expect(line.length, line).toBeLessThanOrEqual(cols);
  },
  90_000,
);
