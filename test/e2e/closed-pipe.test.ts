// Piping the CLI into `head` closes stdout after the first bytes: the run must end quietly with
// its own exit code, not with Node's raw "write EPIPE" stack (seen with `validate … | head -c 100`).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, dealsCsv, tempFiles } from '../helpers/cli.js';

function runReadingOnly(args: string[], closeStream: 'stdout' | 'stderr'): Promise<{ code: number | null; other: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closing = child[closeStream]!;
  const kept = closeStream === 'stdout' ? child.stderr! : child.stdout!;
  let other = '';
  kept.on('data', (c) => (other += c));
  // stdout like `head -c 100`: read one chunk, then close the reading end; stderr: closed at once
  if (closeStream === 'stdout') closing.once('data', () => closing.destroy());
  else closing.destroy();
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, other }));
  });
}

describe('a reader that closes the output early', () => {
  // every row invalid: a report of several megabytes, far more than one pipe buffer
  const dir = tempFiles({ 'deals.csv': dealsCsv(5000, { currency: () => 'USX' }) });

  it('stdout closed (| head): no stack, the run keeps its exit code', async () => {
    const { code, other } = await runReadingOnly(['validate', `${dir}/deals.csv`, '--format', 'json'], 'stdout');
    expect(other).not.toMatch(/EPIPE|node:events|\n\s+at /);
    expect(other).toMatch(/FAILED exit=1/);
    expect(code).toBe(1);
  });

  it('stderr closed: the run keeps its exit code (0 here, not the 1 of a crash)', async () => {
    // stderr closed before the first progress line; the report still goes to stdout
    const valid = tempFiles({ 'deals.csv': dealsCsv(50) });
    const { code, other } = await runReadingOnly(['validate', `${valid}/deals.csv`], 'stderr');
    expect(other).toMatch(/deal +50 +50/);
    expect(code).toBe(0);
  });
});
