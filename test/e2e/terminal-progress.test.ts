// Progress as a person watching a long push expects it, checked on a real pseudo-terminal at 100 and
// 60 columns: the file read against its size as a bar and a percentage, rows/s, an ETA, the requests
// in flight (never a bare "concurrency N"), every frame fitting the terminal's width; a 429's hold
// said as a wait that counts down, not as a rows/s decaying to nothing (issue 37.4).
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv, tempFiles } from '../helpers/cli.js';
import { startCliOnPty } from '../helpers/pty.js';

const KEY = 'progress-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

const itemsIn = (req: RecordedRequest) => (JSON.parse(req.body.toString()).items as unknown[]).length;

/** What the screen showed, frame by frame: each redraw of the line, cursor and colour codes removed. */
function frames(output: string): string[] {
  return output
    .split(/\r|\n|\u001b\[\d*G/)
    .map((s) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
    .filter((s) => s.trim() !== '');
}

async function slowPush(cols: number) {
  // every answer takes 60 ms and two go at once: the read waits for the sending, so the run takes
  // seconds and the file is read little by little, as a long push is
  server = await startServer([], {
    respond: (req) => ({ status: 200, delayMs: 60, body: { data: { code: 200, success: itemsIn(req), error: [] }, status: 'SUCCESS' } }),
  });
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(12_000) });
  const run = startCliOnPty(['push', '--batch-size', '100', '--concurrency', '2', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    cols,
    rows: 30,
    killAfterMs: 60_000,
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url, BATCH_SYNC_ENGINE: process.env.BATCH_SYNC_ENGINE ?? 'simple' },
  });
  const { code, output } = await run.result;
  expect(code, output.slice(-3000)).toBe(0);
  return frames(output);
}

test('at 100 columns: the file, a bar, a percentage, rows/s, an ETA and the requests in flight, each frame within the width', async () => {
  const shown = await slowPush(100);
  const lines = shown.filter((l) => /deal deals\.csv/.test(l));
  expect(lines.length, shown.join('\n')).toBeGreaterThan(3);
  expect(
    lines.some((l) => /deal deals\.csv {2}[█░]{16} {2}\d{1,3}% {2}[\d.]+ [kM]?B\/[\d.]+ [kM]?B {2}[\d,]+ rows {2}[\d,]+ rows\/s {2}ETA \d+s/.test(l)),
    lines.join('\n'),
  ).toBe(true);
  expect(
    lines.some((l) => /\d+ in flight/.test(l)),
    lines.join('\n'),
  ).toBe(true);
  // the percentage grows with the file read
  const percents = lines.map((l) => Number(/ (\d{1,3})% /.exec(l)?.[1] ?? Number.NaN)).filter((n) => !Number.isNaN(n));
  expect(percents.at(-1)!).toBeGreaterThan(percents[0]!);
  const spinnerFrames = shown.filter((l) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(l));
  expect(spinnerFrames.length).toBeGreaterThan(3);
  for (const line of spinnerFrames) expect(line.length, line).toBeLessThanOrEqual(100);
  expect(shown.join('\n')).not.toMatch(/concurrency \d/);
}, 90_000);

test('at 60 columns: the bar and sizes give way, the percentage and the ETA stay, nothing wraps', async () => {
  const shown = await slowPush(60);
  const lines = shown.filter((l) => /deal deals\.csv/.test(l));
  expect(
    lines.some((l) => /deal deals\.csv .*\d{1,3}% .*ETA \d+s/.test(l)),
    lines.join('\n'),
  ).toBe(true);
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
}, 90_000);

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
