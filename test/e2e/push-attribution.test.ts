// data.error elements must fall on the item they name: a row the server rejected is never counted accepted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { runCli, tempFiles, SALES_PROFILES_CSV } from '../helpers/cli.js';

const KEY = 'attribution-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const itemsOf = (req: RecordedRequest) => JSON.parse(req.body.toString()).items as { externalId: string }[];
const HEADER = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency';

describe('attribution by externalId', () => {
  test('embedded sandbox: an id with a space whose first word is another id of the batch', async () => {
    // "ACME 2" names an owner that does not exist: the sandbox rejects items[1] externalId=ACME 2
    const dir = tempFiles({
      'sales-profiles.csv': SALES_PROFILES_CSV,
      'deals.csv': [HEADER, 'ACME,Good deal,ana,ana,false,1.00,USD', 'ACME 2,Bad deal,ghost,ghost,false,2.00,USD'].join('\n'),
    });
    const errors = join(dir, 'failed.csv');
    const r = await runCli([
      'push',
      '--sandbox',
      '--no-hold-dependents',
      '--answers',
      'named',
      '--errors',
      errors,
      join(dir, 'sales-profiles.csv'),
      join(dir, 'deals.csv'),
    ]);
    expect(r.code).toBe(1);
    const failed = readFileSync(errors, 'utf8');
    // expected: the row of "ACME 2" (deals.csv:3) is the rejected one; "ACME" was accepted by the sandbox
    expect(failed).toContain('ACME 2');
    expect(failed).not.toMatch(/^.*\bACME,Good deal/m);
  });

  test('misbehaving server: the same with items[1] externalId="ACME 2"', async () => {
    server = await startServer([], {
      respond: (req) => ({
        status: 200,
        body: {
          data: {
            code: 200,
            success: itemsOf(req).length - 1,
            error: [{ message: 'VALIDATION_ERROR', detail: 'items[1] externalId=ACME 2: ownerExternalId: "ghost" does not exist as a sales profile' }],
          },
          status: 'SUCCESS',
        },
      }),
    });
    const dir = tempFiles({ 'deals.csv': [HEADER, 'ACME,Good deal,ana,ana,false,1.00,USD', 'ACME 2,Bad deal,ghost,ghost,false,2.00,USD'].join('\n') });
    const errors = join(dir, 'failed.csv');
    const r = await runCli(['push', '--errors', errors, join(dir, 'deals.csv')], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url });
    expect(r.code).toBe(1);
    const failed = readFileSync(errors, 'utf8');
    expect(failed).toContain('ACME 2,Bad deal');
    expect(failed).not.toContain('ACME,Good deal');
  });

  test('a detail naming no item, with a number that happens to be an externalId, falls on the whole batch', async () => {
    // the server rejected deal "4" (say) and says so without naming it: per docs/pushing.md it falls on the whole batch
    server = await startServer([], {
      respond: (req) => ({
        status: 200,
        body: {
          data: {
            code: 200,
            success: itemsOf(req).length - 1,
            error: [{ message: 'VALIDATION_ERROR', detail: 'amount.value must have at most 2 decimal places' }],
          },
          status: 'SUCCESS',
        },
      }),
    });
    const rows = [HEADER];
    for (let i = 1; i <= 5; i++) rows.push(`${i},Deal ${i},ana,ana,false,${i}.00,USD`);
    const dir = tempFiles({ 'deals.csv': rows.join('\n') });
    const r = await runCli(['push', '--format', 'json', join(dir, 'deals.csv')], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url });
    const report = JSON.parse(r.stdout) as { counts: { deal: Record<string, number> } };
    // expected: the detail names no item, so none is counted accepted (the batch's rows are UNVERIFIED)
    expect(report.counts.deal.accepted).toBe(0);
  });
});
