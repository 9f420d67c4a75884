// The sandbox's page (issue 35 item 3) as a person sees it in a real browser: `batch-sync sandbox`
// started as a user starts it, the shipped CRM export pushed into it while the page is open, then a
// push with a refused row and hostile cells. The page must show counts that grow without a reload,
// find a record by its externalId and show its JSON, list the batches with their answers and each
// refusal with its item, run nothing from the data, ask nothing of any origin but its own, hold no
// serious accessibility violation, and never carry the API key. Its port is loopback only.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserAvailable, checkPage, launchBrowser } from '../helpers/browser.js';
import { startCli, tempFiles, type CliResult } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const CANARY = 'sbx_CANARY-page-7f3a9e1c55';
const HOSTILE_TITLE = `<script>document.title='pwned'</script><img src=x onerror="document.title='pwned'">`;
const LONG_CELL = 'x'.repeat(200_000);

/** Resolves with the first match of `pattern` in what the child printed to `stream`. */
function printed(child: ReturnType<typeof startCli>['child'], stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  return new Promise((done, fail) => {
    let text = '';
    const timer = setTimeout(() => fail(new Error(`not printed within ${timeoutMs} ms: ${pattern}\n${text}`)), timeoutMs);
    child[stream]!.on('data', (chunk) => {
      text += chunk;
      const match = text.match(pattern);
      if (match) {
        clearTimeout(timer);
        done(match);
      }
    });
  });
}

async function push(args: string[], cwd = ROOT): Promise<CliResult> {
  return startCli(['push', ...args], { cwd, env: { BATCH_SYNC_API_KEY: CANARY } }).result;
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Searches the deals by an externalId prefix as a person does, expects one match, opens it: its JSON. */
async function searchOne(page: Page, prefix: string, id: string): Promise<any> {
  await page.selectOption('#search-resource', 'deal');
  await page.fill('#search-id', prefix);
  await page.click('#search-form button[type=submit]');
  await expect.poll(() => page.locator('#search-results button').count(), { timeout: 5000 }).toBe(1);
  await page.click('#search-results button');
  await expect.poll(() => page.textContent('#record-json'), { timeout: 5000 }).toContain(id);
  return JSON.parse((await page.textContent('#record-json')) ?? '');
}

describe.runIf(browserAvailable())('the sandbox page, in a real browser', () => {
  let browser: Browser;
  let sandbox: ReturnType<typeof startCli>;
  let apiUrl: string;
  let pageUrl: string;

  beforeAll(async () => {
    sandbox = startCli(['sandbox', '--port', '0', '--page-port', '0', '--api-key', CANARY, '--quiet']);
    const listening = printed(sandbox.child, 'stdout', /sandbox listening on (http:\/\/\S+)/);
    const page = printed(sandbox.child, 'stdout', /page: (http:\/\/127\.0\.0\.1:\d+\/)/);
    [browser, apiUrl, pageUrl] = await Promise.all([launchBrowser(), listening.then((m) => m[1]!), page.then((m) => m[1]!)]);
  }, 30_000);
  afterAll(async () => {
    sandbox?.child.kill('SIGTERM');
    await sandbox?.result;
    await browser?.close();
  });

  test('during a push: counts grow without a reload; then a search, a record, the batches', async () => {
    const seen: string[] = [];
    await checkPage(browser, pageUrl, { screenshot: 'sandbox-page' }, async ({ page }) => {
      page.on('response', async (res) => seen.push(await res.text().catch(() => '')));
      expect(await page.textContent('#count-deal')).toBe('0');
      await page.evaluate(() => ((globalThis as any).notReloaded = true));
      const values = new Set<string>();
      const run = push(['--base-url', apiUrl, '--config', 'fixtures/crm-sales-opportunities/batch-sync.config.json', '--quiet']);
      let done = false;
      void run.finally(() => (done = true));
      while (!done) {
        values.add((await page.textContent('#count-deal')) ?? '');
        await page.waitForTimeout(100);
      }
      expect((await run).code).toBe(0);
      await expect.poll(() => page.textContent('#count-deal'), { timeout: 5000 }).toBe('8,800');
      expect(await page.evaluate(() => (globalThis as any).notReloaded)).toBe(true);
      expect(values.has('0')).toBe(true);
      expect(await page.textContent('#count-account')).toBe('85');
      expect(await page.textContent('#count-sales-profile')).toBe('35');

      const json = await searchOne(page, '1C1I7A6R', '1C1I7A6R');
      expect(json).toMatchObject({ externalId: '1C1I7A6R', isWon: true });

      const batchRows = await page.locator('#batches tbody tr').allTextContents();
      expect(batchRows.length).toBeGreaterThan(80);
      expect(batchRows.some((row) => row.includes('POST') && row.includes('deal') && row.includes('200'))).toBe(true);
    });
    expect(seen.length).toBeGreaterThan(3);
    for (const body of seen) expect(body).not.toContain(CANARY);
  }, 60_000);

  test('a refusal with its item; hostile cells shown as text, nothing of them live', async () => {
    const dir = tempFiles({
      'sales-profiles.csv': 'externalId,email,profile.firstName,profile.lastName\npage-owner,owner@example.com,Page,Owner\n',
      'deals.csv': [
        'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency,customFields.site[Site],customFields.notes[Notes]',
        `HOSTILE-1,"${HOSTILE_TITLE.replaceAll('"', '""')}",page-owner,page-owner,false,10.00,USD,javascript:alert(document.domain),${LONG_CELL}`,
        'HOSTILE-2,javascript:alert(1),nobody-here,page-owner,false,20.00,USD,,',
      ].join('\n'),
    });
    const result = await push(['--base-url', apiUrl, 'sales-profiles.csv', 'deals.csv', '--answers', 'named'], dir);
    expect(result.code, result.stdout + result.stderr).toBe(1);

    await checkPage(browser, pageUrl, { screenshot: 'sandbox-page-refusals' }, async ({ page }) => {
      await expect.poll(() => page.textContent('#refusals'), { timeout: 5000 }).toContain('HOSTILE-2');
      const refusals = (await page.textContent('#refusals')) ?? '';
      expect(refusals).toContain('ownerExternalId: "nobody-here" does not exist as a sales profile');
      expect(refusals).toContain('"title":"javascript:alert(1)"');

      const record = await searchOne(page, 'HOSTILE', 'HOSTILE-1');
      expect(record.title).toBe(HOSTILE_TITLE);
      const fields = new Map((record.customFields as { key: string; value: string }[]).map((f) => [f.key, f.value]));
      expect(fields.get('site')).toBe('javascript:alert(document.domain)');
      expect(fields.get('notes')).toHaveLength(LONG_CELL.length);

      expect(await page.title()).toBe('batch-sync sandbox');
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('a[href^="javascript:"], [href*="javascript:"], [src*="javascript:"]').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(2);
    });
  }, 30_000);

  test('the key in no page or JSON; loopback only; another Host refused', async () => {
    const page = new URL(pageUrl);
    const urls = [
      pageUrl,
      `${page.origin}/data/summary`,
      `${page.origin}/data/records?resource=deal&q=HOSTILE&page=0`,
      `${page.origin}/data/record?resource=deal&id=HOSTILE-1`,
      `${page.origin}/data/batches?page=0`,
      `${page.origin}/data/refusals?page=0`,
    ];
    for (const url of urls) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.body, url).not.toContain(CANARY);
    }
    // a DNS-rebinding page reaches 127.0.0.1 under another name: refused
    expect((await get(pageUrl, { host: `evil.example:${page.port}` })).status).toBe(403);

    // bound to 127.0.0.1: /proc/net/tcp lists the listening socket's local address (hex, little-endian)
    const port = Number(page.port).toString(16).toUpperCase().padStart(4, '0');
    const listening = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${port}`) && f[3] === '0A');
    expect(listening.map((f) => f[1])).toEqual([`0100007F:${port}`]);
    expect(readFileSync('/proc/net/tcp6', 'utf8')).not.toMatch(new RegExp(`:${port} [0-9A-F]{32}:0000 0A`));
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (outside) await expect(get(`http://${outside.address}:${page.port}/`)).rejects.toThrow(/ECONNREFUSED/);
  }, 15_000);
});
