import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { memoryOutput } from '../../src/report/output.js';
import { createProgress, startProgress, pickProgressMode, progressText } from '../../src/report/progress.js';

const T0 = Date.parse('2026-11-21T05:44:51Z');

function clock() {
  let t = T0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('progress', () => {
  test('the text: counts and rate only', () => {
    const position = { file: 'in/deals.csv', bytes: 1_200_000, size: 2_500_000 };
    expect(
      progressText({ rowsRead: 12000, batchesAcked: 118, itemsAcked: 11800, retries: 2, resource: 'deals' }, { rowsPerSecond: 1180, position, etaMs: 12_000 }),
    ).toBe('deals: 12000 rows read, 48% of deals.csv, ETA 12s, 118 batches acknowledged, 1180 rows/s, 2 retries');
    expect(progressText({ rowsRead: 5, batchesAcked: 0, itemsAcked: 0, retries: 0 })).toBe('5 rows read');
  });

  test('plain mode prints at most one timestamped line per interval, and the last counts on stop', () => {
    const out = memoryOutput();
    const c = clock();
    const p = createProgress({ output: out, now: c.now, intervalMs: 5000 });
    expect(p.mode).toBe('plain');
    for (let i = 1; i <= 100; i++) {
      c.advance(100); // 10 s in all
      p.update({ rowsRead: i * 120, batchesAcked: i, itemsAcked: i * 100, retries: 0, resource: 'deals' });
    }
    expect(out.stderr).toEqual([
      '2026-11-21T05:44:56Z  deals: 6000 rows read, 50 batches acknowledged, 1200 rows/s',
      '2026-11-21T05:45:01Z  deals: 12000 rows read, 100 batches acknowledged, 1200 rows/s',
    ]);
    c.advance(1000);
    p.update({ rowsRead: 12100, batchesAcked: 101, itemsAcked: 10100, retries: 1, resource: 'deals' });
    p.event('retrying batch b-7 after 503 in 1.2 s');
    p.event('request body: 412 bytes', 'debug');
    p.stop();
    p.stop();
    expect(out.stderr.slice(2)).toEqual([
      '2026-11-21T05:45:02Z  retrying batch b-7 after 503 in 1.2 s',
      // rows over the last 5 s (a rate since the start would read 1,100 and fall on through any pause)
      '2026-11-21T05:45:02Z  deals: 12100 rows read, 101 batches acknowledged, 980 rows/s, 1 retry',
    ]);
  });

  test('verbose shows debug events', () => {
    const out = memoryOutput();
    const p = createProgress({ output: out, verbose: true, now: () => T0 });
    p.event('request body: 412 bytes', 'debug');
    expect(out.stderr).toEqual(['2026-11-21T05:44:51Z  request body: 412 bytes']);
  });

  test('quiet mode prints nothing but errors', () => {
    const out = memoryOutput();
    const c = clock();
    const p = createProgress({ output: out, mode: 'quiet', now: c.now });
    c.advance(60_000);
    p.update({ rowsRead: 1, batchesAcked: 1, itemsAcked: 1, retries: 0 });
    p.event('retrying');
    p.event('giving up on batch b-7 after 5 attempts', 'error');
    p.stop();
    expect(out.stderr).toEqual(['giving up on batch b-7 after 5 attempts']);
  });

  test('the mode follows stderr unless forced', () => {
    const out = memoryOutput();
    expect(pickProgressMode(out)).toBe('plain');
    const sized = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: true, columns: 80 });
    expect(pickProgressMode({ ...out, stderrIsTTY: true, stderrStream: sized })).toBe('tty');
    expect(pickProgressMode({ ...out, stderrIsTTY: true })).toBe('plain');
    expect(pickProgressMode({ ...out, stderrIsTTY: true, stderrStream: sized }, 'quiet')).toBe('quiet');
  });

  test('a terminal that reports 0 columns, or none, gets plain lines: a spinner there never ends', () => {
    const out = memoryOutput();
    for (const columns of [0, undefined, Number.NaN, -1, 0.5]) {
      const stream = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: true, columns });
      expect(pickProgressMode({ ...out, stderrIsTTY: true, stderrStream: stream })).toBe('plain');
    }
  });

  test('a terminal resized to 0 columns mid-run stops the spinner and goes on in plain lines', async () => {
    const chunks: string[] = [];
    const stream = Object.assign(new Writable({ write: (c, _e, cb) => (chunks.push(String(c)), cb()) }), {
      isTTY: true,
      columns: 100,
      cursorTo: () => true,
      moveCursor: () => true,
      clearLine: () => (chunks.push('<clear>'), true),
    });
    const out = { ...memoryOutput(), stderrIsTTY: true, stderrStream: stream as unknown as NodeJS.WritableStream };
    const c = clock();
    const p = await startProgress({ output: out, now: c.now });
    expect(p.mode).toBe('tty');
    c.advance(1000);
    p.update({ rowsRead: 100, batchesAcked: 1, itemsAcked: 100, retries: 0, resource: 'deals' });
    stream.columns = 0;
    stream.emit('resize');
    expect(p.mode).toBe('plain');
    const drawn = chunks.length;
    c.advance(6000);
    p.update({ rowsRead: 200, batchesAcked: 2, itemsAcked: 200, retries: 0, resource: 'deals' });
    p.stop();
    // nothing more drawn on the terminal by the spinner; the counts went on as plain lines
    expect(chunks.length).toBe(drawn);
    expect(out.stderr).toEqual([expect.stringMatching(/^\S+Z {2}deals: 200 rows read, 2 batches acknowledged, 17 rows\/s$/)]);
  });

  test('tty mode draws a spinner on the stderr stream with live counts and clears it on stop', async () => {
    const chunks: string[] = [];
    const stream = Object.assign(new Writable({ write: (c, _e, cb) => (chunks.push(String(c)), cb()) }), {
      isTTY: true,
      columns: 100,
      cursorTo: () => true,
      moveCursor: () => true,
      clearLine: () => true,
    });
    const out = { ...memoryOutput(), stderrIsTTY: true, stderrStream: stream as unknown as NodeJS.WritableStream };
    const c = clock();
    const p = await startProgress({ output: out, now: c.now });
    expect(p.mode).toBe('tty');
    c.advance(1000);
    p.update({ rowsRead: 300, batchesAcked: 3, itemsAcked: 300, retries: 0, resource: 'deals' });
    p.event('retrying batch b-3 after 503 in 1.2 s');
    p.stop();
    expect(chunks.join('')).toContain('deals  300 rows  300 rows/s');
    expect(out.stderr).toEqual(['retrying batch b-3 after 503 in 1.2 s']);
  });

  test('a wait for a rate limit is said as a wait, its time added to the ETA; after it the rate is the sending rate, the wait not counted as slowness', () => {
    // 1,000 lines of 100 bytes: line n is n × 100 bytes into the file
    const file = join(mkdtempSync(join(tmpdir(), 'progress-wait-')), 'deals.csv');
    writeFileSync(file, `${'x'.repeat(99)}\n`.repeat(1000));
    const out = memoryOutput();
    const c = clock();
    const flow: { inFlight: number; wait?: { ms: number; cause: string } } = { inFlight: 2 };
    const p = createProgress({ output: out, now: c.now, intervalMs: 1000 });
    let rows = 0;
    const update = () =>
      p.update({ rowsRead: rows, batchesAcked: rows / 10, itemsAcked: rows, retries: 0, resource: 'deals', file, line: rows + 1, flowNow: () => flow });
    const tick = (moving: boolean) => {
      c.advance(100);
      if (moving) rows += 10;
      update();
    };
    for (let i = 0; i < 50; i++) tick(true); // 5 s at 100 rows/s
    expect(out.stderr.at(-1)).toMatch(/deals: 500 rows read, 50% of deals\.csv, ETA 5s, 50 batches acknowledged, 100 rows\/s, 2 in flight$/);
    // a 429's Retry-After of 4 s: nothing moves, and the line says why
    for (let i = 0; i < 10; i++) {
      flow.wait = { ms: 4000 - i * 100, cause: '429' };
      flow.inFlight = 0;
      tick(false);
    }
    expect(out.stderr.at(-1)).toMatch(/deals: 500 rows read, 50% of deals\.csv, ETA 8s, 50 batches acknowledged, waiting 4s for the rate limit \(429\)$/);
    for (let i = 10; i < 40; i++) {
      flow.wait = { ms: 4000 - i * 100, cause: '429' };
      tick(false);
    }
    expect(out.stderr.at(-1)).toMatch(/ETA 5s, 50 batches acknowledged, waiting 1s for the rate limit \(429\)$/);
    flow.wait = undefined;
    flow.inFlight = 2;
    for (let i = 0; i < 10; i++) tick(true);
    // over the last 5 s on the clock, 4 s of them waiting: still 100 rows/s, not 20
    expect(out.stderr.at(-1)).toMatch(/deals: 600 rows read, 60% of deals\.csv, ETA 4s, 60 batches acknowledged, 100 rows\/s, 2 in flight$/);
  });
});
