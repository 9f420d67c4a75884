// `push --dry-run` lists the batches it would send, as its help says; `--emit -` writes the
// envelopes to stdout, one per line and nothing else, and the report moves to stderr.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { dealsCsv, SALES_PROFILES_CSV, spawnCli, tempFiles } from '../helpers/cli.js';

const SUMMARY = /^batch-sync (push --dry-run|validate): run \S+ OK exit=0 read=252 valid=252 /;

function inputs(): string {
  return tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(250) });
}

test('push --dry-run prints the batches that would go: id, resource, items, bytes', async () => {
  const dir = inputs();
  const r = await spawnCli(['push', '--dry-run', '--batch-size', '100', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('4 batches would be sent (nothing was sent):');
  const lines = r.stdout.split('\n').filter((l) => /^ {2}batch-sync-/.test(l));
  expect(lines).toHaveLength(4);
  expect(lines[0]).toMatch(/^ {2}batch-sync-sales-profile-\S+-00001 {2}sales-profile {2}2 items {2}\d+ bytes$/);
  expect(lines[1]).toMatch(/^ {2}batch-sync-deal-\S+-00001 {2}deal {2}100 items {2}\d+ bytes$/);
  expect(lines[3]).toMatch(/ 50 items /);
});

test('push --dry-run --format json lists the batches in the document', async () => {
  const dir = inputs();
  const r = await spawnCli(['push', '--dry-run', '--format', 'json', '--batch-size', '100', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const doc = JSON.parse(r.stdout);
  expect(doc.batches.map((b: { resource: string; items: number }) => [b.resource, b.items])).toEqual([
    ['sales-profile', 2],
    ['deal', 100],
    ['deal', 100],
    ['deal', 50],
  ]);
  expect(doc.batches[0].batchId).toMatch(/^batch-sync-sales-profile-/);
});

test.each([['push', '--dry-run'], ['validate']])(
  '%s --emit - writes only the envelopes to stdout, one per line; the report goes to stderr',
  async (...args) => {
    const dir = inputs();
    const r = await spawnCli([...args, '--emit', '-', '--batch-size', '100', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, '-'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['deals.csv', 'sales-profiles.csv']);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    const envelopes = lines.map((l) => JSON.parse(l));
    expect(envelopes.map((e) => e.items.length)).toEqual([2, 100, 100, 50]);
    expect(envelopes.every((e) => typeof e.batchId === 'string' && e.source === 'batch-sync')).toBe(true);
    // the report, and the summary line last, on stderr
    expect(r.stderr).toMatch(/^resource +read +valid/m);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(SUMMARY);
  },
);

test('--emit - with --format json: stdout is the envelopes, the JSON report is on stderr', async () => {
  const dir = inputs();
  const r = await spawnCli(['validate', '--emit', '-', '--format', 'json', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).items.length),
  ).toEqual([2, 100, 100, 50]);
  expect(r.stderr).toContain('"totals"');
  expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(SUMMARY);
});

test('push --help-all says what --dry-run prints and what --emit - does', async () => {
  const r = await spawnCli(['push', '--help-all']);
  expect(r.code).toBe(0);
  const flat = r.stdout.replace(/\s+/g, ' ');
  expect(flat).toContain('--dry-run do everything but send; list the batches that would go (id, items, bytes) in the report');
  expect(flat).toContain('"-": to stdout (the report then goes to stderr)');
});
