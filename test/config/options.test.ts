// Each option is declared once (src/config/options.ts): the same row gives the flag and its help,
// the plan's field, the environment variable and the resolved value. These tests hold the table to
// that, and check what it declares cannot go together.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { addOptions, givenFlags } from '../../src/commands/add-options.js';
import { HELP_GROUPS, planShape, resolveOptions, type OptionTable } from '../../src/config/option.js';
import { PUSH_OPTIONS, RUN_OPTIONS, VALIDATE_OPTIONS } from '../../src/config/options.js';
import { loadSyncPlan } from '../../src/config/sync-plan.js';
import { runCli, tempFiles } from '../helpers/cli.js';

const table = {
  retries: {
    flag: '--retries <n>',
    env: 'X_RETRIES',
    plan: 'defaults.retries',
    default: 5,
    schema: z.number({ error: 'takes a whole number' }).int().min(0, 'must be at least 0').describe('retries of a batch'),
  },
} satisfies OptionTable;

describe('one row gives every place an option lives', () => {
  test('commander option and help line, and the value typed on the command line', () => {
    const command = addOptions(new Command('x').exitOverride(), table);
    expect(command.helpInformation()).toMatch(/--retries <n>\s+retries of a batch/);
    command.parse(['node', 'x', '--retries', '7']);
    expect(givenFlags(command, table)).toEqual({ retries: '7' });
  });

  test("a flag beats the environment, which beats the plan, which beats the default; text becomes the schema's type", () => {
    const plan = { defaults: { retries: 2 } };
    expect(resolveOptions(table, {}, {}, undefined).retries).toBe(5);
    expect(resolveOptions(table, {}, {}, plan).retries).toBe(2);
    expect(resolveOptions(table, {}, { X_RETRIES: '3' }, plan).retries).toBe(3);
    expect(resolveOptions(table, { retries: '7' }, { X_RETRIES: '3' }, plan).retries).toBe(7);
    // an empty variable is unset, not zero
    expect(resolveOptions(table, {}, { X_RETRIES: '' }, plan).retries).toBe(2);
  });

  test('a bad value is refused naming where it came from', () => {
    expect(() => resolveOptions(table, { retries: 'lots' }, {})).toThrow('--retries takes a whole number');
    expect(() => resolveOptions(table, { retries: '' }, {})).toThrow('--retries takes a whole number');
    expect(() => resolveOptions(table, {}, { X_RETRIES: '-1' })).toThrow('X_RETRIES must be at least 0');
  });

  test("the plan's field, strict: a number in the plan is a number, never text", () => {
    const plan = z.strictObject(planShape(table));
    expect(plan.safeParse({ defaults: { retries: 3 } }).success).toBe(true);
    expect(plan.safeParse({ defaults: { retries: '3' } }).success).toBe(false);
    expect(plan.safeParse({ defaults: { retry: 3 } }).success).toBe(false);
  });
});

describe('the tables of push and validate', () => {
  test('every option push and validate list in --help-all comes from their table, by task, in its order within each', async () => {
    const tasks = Object.keys(HELP_GROUPS);
    for (const [name, options] of [
      ['push', PUSH_OPTIONS],
      ['validate', VALIDATE_OPTIONS],
    ] as const) {
      const help = (await runCli([name, '--help-all'])).stdout;
      const rows = Object.values(options as OptionTable).filter((row) => row.flag !== undefined);
      // every flag of theirs is under a task
      expect(rows.filter((row) => row.group === undefined).map((row) => row.flag)).toEqual([]);
      const flags = rows.sort((a, b) => tasks.indexOf(a.group!) - tasks.indexOf(b.group!)).map((row) => row.flag);
      const listed = [...help.matchAll(/^ {2}(-\S.*?)(?: {2,}|$)/gm)].map((m) => m[1]!).filter((f) => f !== '-h, --help' && f !== '--help-all');
      expect(listed).toEqual(flags);
    }
  });

  test('every plan field of a setting is declared by its row, with the same limits as its flag', async () => {
    const dir = tempFiles({ 'a.csv': 'x' });
    const path = join(dir, 'batch-sync.config.json');
    const planned = (fields: object) => {
      writeFileSync(path, JSON.stringify({ ...fields, jobs: [{ file: 'a.csv' }] }));
      return loadSyncPlan(path).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    };
    for (const row of Object.values(RUN_OPTIONS as OptionTable)) expect(row.plan === undefined || row.schema.description !== undefined).toBe(true);
    expect(await planned({ defaults: { retryDelayMs: 600_000 }, answers: { style: 'named' }, stateDir: 's' })).toBe('ok');
    // the plan once allowed what the flag refused later; one row, one limit
    expect(await planned({ defaults: { retryDelayMs: 600_001 } })).toMatch(/batch-sync\.config\.json: defaults\.retryDelayMs: must be at most 600000$/);
    expect(await planned({ defaults: { batchSize: 0 } })).toMatch(/defaults\.batchSize: must be at least 1$/);
    expect(await planned({ baseUrl: 'api.example.com?apikey=s3cret' })).toMatch(/baseUrl: "api\.example\.com\?…" is not a URL$/);
  });
});

describe("reader options: one row for the flag and the plan job's reader", () => {
  test('the same values, the same limits, the same words', async () => {
    const dir = tempFiles({ 'a.csv': 'x' });
    const path = join(dir, 'batch-sync.config.json');
    const reader = (fields: object) => {
      writeFileSync(path, JSON.stringify({ jobs: [{ file: 'a.csv', reader: fields }] }));
      return loadSyncPlan(path).then(
        (plan) => plan.jobs[0]!.reader,
        (e: Error) => e.message,
      );
    };
    expect(await reader({ delimiter: 'tab', headerRow: 3, format: 'csv' })).toEqual({ delimiter: '\t', headerRow: 3, format: 'csv' });
    expect(await reader({ headerRow: 0 })).toMatch(/jobs\[0\]\.reader\.headerRow: takes a line number \(1 or more\)$/);
    expect(await reader({ maxRecordBytes: 10 })).toMatch(/jobs\[0\]\.reader\.maxRecordBytes: takes a whole number of bytes \(1024 or more\)$/);
    expect(await reader({ escape: 'ab' })).toMatch(/jobs\[0\]\.reader\.escape: takes one character$/);
    expect(await reader({ quote: "'" })).toMatch(/jobs\[0\]\.reader: .*quote/);
    for (const [args, message] of [
      [['--header-row', '0'], '--header-row takes a line number (1 or more)'],
      [['--max-record-bytes', 'lots'], '--max-record-bytes takes a whole number of bytes (1024 or more)'],
      [['--escape', 'ab'], '--escape takes one character'],
      [['--delimiter', ''], '--delimiter must not be empty'],
    ] as const) {
      const r = await runCli(['validate', ...args, 'deals.csv']);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`error: ${message}`);
    }
  });
});

describe('options that cannot go together are declared in the table, and refused before anything runs', () => {
  test('--sandbox with --base-url or --api-key-file', async () => {
    for (const extra of [
      ['--base-url', 'https://api.example.com'],
      ['--api-key-file', 'key'],
    ]) {
      const r = await runCli(['push', '--sandbox', ...extra, 'deals.csv']);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe('error: --sandbox starts its own API: drop --base-url and --api-key-file');
    }
  });
  test('push --emit without --dry-run', async () => {
    const r = await runCli(['push', '--emit', 'out.ndjson', 'deals.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: --emit goes with --dry-run (push sends the batches; validate --emit writes them)');
  });
  test('a bad base URL in the environment names the variable, not a flag that was never given', async () => {
    const r = await runCli(['push', 'deals.csv'], { BATCH_SYNC_BASE_URL: 'api.example.com' });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: BATCH_SYNC_BASE_URL "api.example.com" is not a URL');
  });
});
