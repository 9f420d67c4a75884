// push against the sandbox over a real socket: order, batching, dependents, errors CSV, exit codes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { ANSWER_STYLES_UNDER_TEST, sandboxPerFile } from '../helpers/sandbox.js';
import { SALES_PROFILES_CSV, dealsCsv, runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'sandbox-key-0123456789';
let sandbox: SandboxHandle;
let env: Record<string, string>;
describe.each(ANSWER_STYLES_UNDER_TEST)('answers $style', ({ style, args: answerArgs }) => {
  sandboxPerFile(
    KEY,
    (s, e) => {
      sandbox = s;
      env = e;
    },
    { reset: true, answers: style },
  );

  describe('push into the sandbox', () => {
    test('sends kinds in dependency order whatever order the files come in, and every row is accepted', async () => {
      const dir = tempFiles({
        'deals.csv': dealsCsv(5),
        'accounts.csv': 'externalId,name,type\nacme,Acme,COMPANY',
        'sales-profiles.csv': SALES_PROFILES_CSV,
      });
      const r = await runCli(['push', ...answerArgs, join(dir, 'deals.csv'), join(dir, 'accounts.csv'), join(dir, 'sales-profiles.csv')], env);
      expect(r.code).toBe(0);
      expect(sandbox.batches().map((b) => b.resource)).toEqual(['sales-profile', 'account', 'deal']);
      expect(sandbox.records('deal')).toHaveLength(5);
      expect(r.stdout).toMatch(/deal\s+5\s+5\s+0\s+0\s+0/);
    });

    test('batch size and deterministic batch ids', async () => {
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(250) });
      const r = await runCli(['push', ...answerArgs, '--batch-size', '100', '--source', 'crm', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], env);
      expect(r.code).toBe(0);
      const deals = sandbox.batches().filter((b) => b.resource === 'deal');
      expect(deals.map((b) => b.items)).toEqual([100, 100, 50]);
      for (const [i, b] of deals.entries()) expect(b.batchId).toMatch(new RegExp(`^crm-deal-\\d{8}T\\d{6}Z-[0-9a-f]{4}-0000${i + 1}$`));
    });

    test('a deal whose owner failed locally is held back, and sent with --no-hold-dependents', async () => {
      const profiles = `${SALES_PROFILES_CSV}\ncarla,not-an-email,Carla,Lima`;
      const dir = tempFiles({ 'sales-profiles.csv': profiles, 'deals.csv': dealsCsv(4, { owner: (i) => (i === 2 ? 'carla' : 'ana') }) });
      const files = [join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')];
      const held = await runCli(['push', ...answerArgs, ...files], env);
      expect(held.code).toBe(1);
      expect(held.stdout).toMatch(/HELD_BACK/);
      expect(held.stdout).toMatch(/deals\.csv:3/);
      expect(
        sandbox
          .records('deal')
          .map((d) => d.externalId)
          .sort(),
      ).toEqual(['D-1', 'D-3', 'D-4']);

      sandbox.reset();
      const sent = await runCli(['push', ...answerArgs, '--no-hold-dependents', ...files], env);
      expect(sent.code).toBe(1);
      // the sandbox refuses it: its owner does not exist there
      expect(sent.stdout).toMatch(/^deal\s+4\s+3\s+1\s+0\s+0/m);
      expect(sent.stdout).toMatch(/deals\.csv:3\s+D-2\s+ownerExternalId: "carla" does not exist as a sales profile/);
      expect(sandbox.records('deal')).toHaveLength(3);
    });

    test('server rejections are attributed to their rows and written to the errors CSV', async () => {
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(6, { owner: (i) => (i === 4 ? 'nobody' : 'ana') }) });
      const errors = join(dir, 'failed.csv');
      const r = await runCli(['push', ...answerArgs, '--errors', errors, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/deals\.csv:5/);
      const csv = readFileSync(errors, 'utf8');
      expect(csv.charCodeAt(0)).toBe(0xfeff);
      const [header, row, ...rest] = csv.slice(1).trim().split('\n');
      expect(rest).toEqual([]);
      expect(header).toBe(
        'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency,_line,_outcome,_field,_message,_detail,_resource',
      );
      expect(row).toMatch(/^D-4,Deal 4,nobody,nobody,false,4\.50,USD,5,rejected,/);
      expect(sandbox.records('deal')).toHaveLength(5);
    });

    test('locally invalid rows are never sent and exit 1; a missing file exits 2 having sent nothing', async () => {
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(3, { currency: (i) => (i === 2 ? 'USX' : 'USD') }) });
      const r = await runCli(['push', ...answerArgs, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/ISO-4217/);
      expect(
        sandbox
          .records('deal')
          .map((d) => d.externalId)
          .sort(),
      ).toEqual(['D-1', 'D-3']);

      sandbox.reset();
      const missing = await runCli(['push', ...answerArgs, join(dir, 'sales-profiles.csv'), join(dir, 'nope.csv')], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/nope\.csv: no such file/);
      expect(sandbox.batches()).toHaveLength(0);
    });

    test('a wrong key aborts with exit 3 after one request, and the key is never printed', async () => {
      const canary = 'canary-key-do-not-print-7f3a';
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(300) });
      const r = await runCli(['push', ...answerArgs, '--verbose', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
        ...env,
        BATCH_SYNC_API_KEY: canary,
      });
      expect(r.code).toBe(3);
      expect(r.stderr + r.stdout).toMatch(/401/);
      // the first batch (sales profiles) is refused and nothing else is sent
      expect(sandbox.stats().requests).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(canary);
    });

    test('--dry-run and validate --emit send nothing and write the exact envelopes', async () => {
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(3) });
      const emit = join(dir, 'batches.ndjson');
      const r = await runCli(
        ['push', ...answerArgs, '--dry-run', '--emit', emit, '--source', 'crm', join(dir, 'deals.csv'), join(dir, 'sales-profiles.csv')],
        env,
      );
      expect(r.code).toBe(0);
      expect(sandbox.batches()).toHaveLength(0);
      const lines = readFileSync(emit, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.source, l.items.length])).toEqual([
        ['crm', 2],
        ['crm', 3],
      ]);
      expect(lines[1].items[0]).toEqual({
        externalId: 'D-1',
        title: 'Deal 1',
        ownerExternalId: 'ana',
        agentExternalId: 'ana',
        isWon: false,
        amount: { value: '1.50', currency: 'USD' },
      });
    });
  });

  describe('the errors CSV fed back', () => {
    test('push with the same (canonical) mapping retries just those rows; the added columns are ignored', async () => {
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(5, { currency: (i) => (i === 3 ? 'USX' : 'USD') }) });
      const errors = join(dir, 'failed.csv');
      const first = await runCli(['push', ...answerArgs, '--errors', errors, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], env);
      expect(first.code).toBe(1);
      // the user fixes the currency in a spreadsheet, and pushes the file back
      const fixed = readFileSync(errors, 'utf8').replace(',USX,', ',USD,');
      const again = join(dir, 'deals-fixed.csv');
      writeFileSync(again, fixed);
      const second = await runCli(['push', ...answerArgs, '--resource', 'deal', again], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/deal\s+1\s+1\s+0\s+0\s+0/);
      expect(
        sandbox
          .records('deal')
          .map((d) => d.externalId)
          .sort(),
      ).toEqual(['D-1', 'D-2', 'D-3', 'D-4', 'D-5']);
    });

    test('cells the formula guard prefixed come back as they were', async () => {
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'accounts.csv': 'externalId,name,type\nacme,=Acme,COMPANY\nbad,,COMPANY' });
      const errors = join(dir, 'failed.csv');
      await runCli(['push', ...answerArgs, '--errors', errors, join(dir, 'accounts.csv')], env);
      const csv = readFileSync(errors, 'utf8');
      expect(csv).toMatch(/\nbad,,COMPANY,3,invalid/);
      writeFileSync(join(dir, 'accounts-again.csv'), csv.replace('bad,,COMPANY', "bad,'=Bad Co,COMPANY"));
      const r = await runCli(['push', ...answerArgs, '--resource', 'account', join(dir, 'accounts-again.csv')], env);
      expect(r.code).toBe(0);
      expect(sandbox.record('account', 'bad')).toMatchObject({ name: '=Bad Co' });
    });
  });
});
