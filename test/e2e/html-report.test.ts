// `--html FILE` (issue 35): the run's page opened from disk in a real browser, offline, as a person
// reads it: the counts, a reason opened into its rows, the search narrowing them, the timeline's
// axes; no console error, no request but the page, no serious axe violation, a screenshot. One clean
// run of the shipped fixture, one against a sandbox that rate-limits and fails batches with rows that
// are rejected, invalid, held back and hostile (`<script>`, a javascript: URL, a 10 MB cell).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runPage } from '../../src/report/html/run-page.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { browserAvailable, checkPage, launchBrowser, openPage } from '../helpers/browser.js';
import { spawnCli, tempFiles, type CliResult } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const KEY = 'html-report-key-7c1d';
const HOSTILE_ID = '<script>alert(1)</script>';

/** Profiles (one invalid), deals owned by them, by one that is not there (rejected), with a bad currency (invalid), and hostile cells. */
function faultyFiles(hostile = true): string {
  const profiles = [
    'externalId,email,profile.firstName,profile.lastName',
    'ana,ana@example.com,Ana,Souza',
    'bruno,bruno@example.com,Bruno,Díaz',
    'carla,not-an-email,Carla,Reis',
  ];
  const deals = ['externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency'];
  for (let i = 1; i <= 60; i++) {
    const owner = i % 10 === 0 ? 'carla' : i % 7 === 0 ? 'ghost' : i % 2 ? 'ana' : 'bruno';
    deals.push(`D-${i},Deal ${i},${owner},${owner},${i % 3 === 0},${i}.50,${i % 11 === 0 ? 'USX' : 'USD'}`);
  }
  if (hostile) deals.push(`"${HOSTILE_ID}","javascript:alert(1)",ghost,ghost,false,1,USD`);
  if (hostile) deals.push(`"<img src=x onerror=alert(2)>","${'A'.repeat(10 * 1024 * 1024)}",ghost,ghost,false,1,USX`);
  return tempFiles({ 'sales-profiles.csv': `${profiles.join('\n')}\n`, 'deals.csv': `${deals.join('\n')}\n` });
}

/** A resource's counts in the outcomes table, as a person reads them. */
const outcomeCells = (page: Page, resource: string) => page.locator('#outcomes tbody tr', { hasText: resource }).locator('td:not(.bar)').allTextContents();

/** Five incremental pushes into the embedded sandbox, one after the other: five run folders under st/reports. */
async function fiveArchivedRuns(cwd: string): Promise<CliResult[]> {
  const runs: CliResult[] = [];
  for (let i = 0; i < 5; i++)
    runs.push(await spawnCli(['push', '--sandbox', '--quiet', '--incremental', '--state-dir', 'st', 'sales-profiles.csv', 'deals.csv'], { cwd }));
  return runs;
}

interface JsonReport {
  totals: Record<string, number>;
  counts: Record<string, Record<string, number>>;
  traffic: { throttled: number; retries: number };
}

describe.runIf(browserAvailable())('push --html: the run page in a browser', () => {
  let browser: Browser;
  let sb: SandboxHandle;
  let clean: { dir: string; run: CliResult };
  let faulty: { dir: string; run: CliResult; report: JsonReport };
  let archived: { dir: string; runs: CliResult[] };

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, apiKey: KEY, rateLimit: 2, failRate: 0.2, seed: 3, latencyMs: 20 });
    const cleanDir = tempFiles({});
    const faultyDir = faultyFiles();
    mkdirSync(join(faultyDir, 'page'));
    const config = 'fixtures/crm-sales-opportunities/batch-sync.config.json';
    const archiveDir = faultyFiles(false);
    const [b, cleanRun, faultyRun, archivedRuns] = await Promise.all([
      launchBrowser(),
      spawnCli(['push', '--sandbox', '--quiet', '--config', config, '--html', join(cleanDir, 'run.html')], { cwd: ROOT }),
      spawnCli(
        [
          'push',
          '--format',
          'json',
          '--batch-size',
          '10',
          '--retry-delay',
          '10',
          '--retry-on-500',
          '--max-record-bytes',
          '20000000',
          'sales-profiles.csv',
          'deals.csv',
        ].concat(['--html', 'page/run.html', '--errors', 'failed.csv', '--junit', 'junit.xml']),
        { cwd: faultyDir, env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url } },
      ),
      fiveArchivedRuns(archiveDir),
    ]);
    archived = { dir: archiveDir, runs: archivedRuns };
    browser = b;
    clean = { dir: cleanDir, run: cleanRun };
    if (!faultyRun.stdout) throw new Error(faultyRun.stderr);
    faulty = { dir: faultyDir, run: faultyRun, report: JSON.parse(faultyRun.stdout) as JsonReport };
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await sb?.close();
  });

  test('a clean run: the counts, the exit code, the timeline with its axes; offline, no error, axe clean', async () => {
    expect(clean.run.code).toBe(0);
    const file = join(clean.dir, 'run.html');
    await checkPage(browser, pathToFileURL(file).href, { offline: true, screenshot: 'html-report-clean' }, async ({ page }) => {
      expect(await page.textContent('#exit-code')).toContain('Exit code 0');
      // accepted, rejected, invalid, held back, unverified, skipped: as text, not colour only
      expect(await outcomeCells(page, 'deal')).toEqual(['8,800', '0', '0', '0', '0', '0']);
      expect(await page.textContent('#chart-rows')).toContain('seconds since the start');
      expect(await page.textContent('#chart-rows')).toContain('rows per second');
      expect(await page.locator('#chart-rows polyline').count()).toBeGreaterThan(0);
      expect(await page.textContent('main')).toContain('Every row was accepted.');
    });
  }, 60_000);

  test('rejections, holds, 429s and retries: a reason opens into its rows, the search narrows them, hostile cells are text', async () => {
    expect(faulty.run.code, faulty.run.stderr).toBe(1);
    expect(faulty.report.traffic.throttled).toBeGreaterThan(0);
    expect(faulty.report.traffic.retries).toBeGreaterThan(0);
    const file = join(faulty.dir, 'page/run.html');
    // bounded: a 10 MB cell is cut
    expect(statSync(file).size).toBeLessThan(500_000);
    const dialogs: string[] = [];
    await checkPage(browser, pathToFileURL(file).href, { offline: true, screenshot: 'html-report-faults' }, async ({ page }) => {
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.setDefaultTimeout(5000);
      const c = faulty.report.counts.deal!;
      const [accepted, rejected, invalid, heldBack, , skipped] = (await outcomeCells(page, 'deal')).map((t) => Number(t.replace(/,/g, '')));
      expect([accepted, rejected, invalid, heldBack! + skipped!]).toEqual([c.accepted, c.rejected, c.invalid, c.skipped]);
      expect(heldBack).toBeGreaterThan(0);
      expect(await page.textContent('#exit-code')).toContain('Exit code 1');
      expect(await page.textContent('#traffic')).toMatch(/[1-9]\d* answered 429, [1-9]\d* retr/);
      expect(await page.textContent('#chart-waits')).toContain('429 answers per second');
      // held back rows have their own column
      expect(await page.textContent('#reasons')).toContain('held back');
      // the biggest reason opened: its rows, drawn as they come into view
      await page.locator('button.reason').first().click();
      await expect.poll(() => page.locator('.viewer tr.row').count()).toBeGreaterThan(5);
      expect(await page.locator('button.reason').first().getAttribute('aria-expanded')).toBe('true');
      const before = await page.locator('.viewer tr.row').count();
      await page.fill('#search', 'D-14');
      await expect.poll(() => page.locator('.viewer tr.row').count()).toBeLessThan(before);
      expect(await page.locator('.viewer tr.row').first().textContent()).toContain('D-14');
      expect(await page.textContent('#match-count')).toMatch(/match/);
      // a hostile id is found as text, and nothing of it runs
      await page.fill('#search', '<script>');
      await expect.poll(() => page.textContent('#reasons')).toContain('match');
      const first = page.locator('button.reason').first();
      if ((await first.getAttribute('aria-expanded')) === 'false') await first.click();
      await expect.poll(() => page.locator('.viewer').textContent()).toContain(HOSTILE_ID);
      expect(await page.locator('.viewer script, .viewer img').count()).toBe(0);
      expect(dialogs).toEqual([]);
      // the links are relative, to the files this run wrote
      expect(await page.locator('#links a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
        '../failed.csv',
        '../failed.deals.csv',
        '../junit.xml',
      ]);
    });
  }, 60_000);

  test('report RUN-FOLDER --html and history --html over five archived runs: charts with axes, each run linked to its page or report', async () => {
    expect(archived.runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1]);
    // in the order the runs started: two runs within one second have ids that do not sort by time
    const startedAt = (f: string) => (JSON.parse(readFileSync(join(archived.dir, 'st/reports', f, 'report.json'), 'utf8')) as { startedAt: string }).startedAt;
    const folders = readdirSync(join(archived.dir, 'st/reports')).sort((a, b) => (startedAt(a) < startedAt(b) ? -1 : 1));
    expect(folders).toHaveLength(5);
    const first = join('st/reports', folders[0]!);
    const report = await spawnCli(['report', first, '--html', join(first, 'report.html')], { cwd: archived.dir });
    expect(report.code, report.stderr).toBe(0);
    const history = await spawnCli(['history', '--state-dir', 'st', '--html', 'history.html'], { cwd: archived.dir });
    expect(history.code, history.stderr).toBe(0);
    const file = join(archived.dir, 'history.html');
    await checkPage(browser, pathToFileURL(file).href, { offline: true, screenshot: 'html-history' }, async ({ page }) => {
      page.setDefaultTimeout(5000);
      expect(await page.locator('#runs tbody tr').count()).toBe(5);
      for (const id of ['#chart-outcomes', '#chart-duration', '#chart-429', '#chart-reasons'])
        expect(await page.textContent(id)).toContain('run (oldest first)');
      expect(await page.textContent('#chart-outcomes')).toContain('rows');
      expect(await page.textContent('#chart-reasons')).toContain('INVALID amount.currency');
      const hrefs = await page.locator('#runs a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual([`./st/reports/${folders[0]}/report.html`, ...folders.slice(1).map((f) => `./st/reports/${f}/report.json`)]);
    });
    // the archived run's page: its counts and a reason's rows, as the run's own page would show
    const runPage = join(archived.dir, first, 'report.html');
    await checkPage(browser, pathToFileURL(runPage).href, { offline: true }, async ({ page }) => {
      page.setDefaultTimeout(5000);
      expect(await page.textContent('#exit-code')).toContain('Exit code 1');
      await page.locator('button.reason', { hasText: 'amount.currency' }).click();
      await expect.poll(() => page.locator('.viewer tr.row').count()).toBeGreaterThan(0);
      expect(await page.locator('.viewer').textContent()).toContain('D-11');
    });
  }, 60_000);

  test('100,000 rows not accepted: the page is bounded, says what it left out, and draws only the rows in view', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({
      file: 'deals.csv',
      line: i + 2,
      resource: 'deal' as const,
      externalId: `D-${i}`,
      outcome: 'invalid' as const,
      field: 'amount.currency',
      column: 'currency',
      message: 'INVALID',
      detail: `amount.currency: "X${i}" is not an ISO-4217 currency code`,
      batchId: null,
    }));
    const counts = { read: 100_000, accepted: 0, rejected: 0, invalid: 100_000, skipped: 0, warnings: 0 };
    const reason = 'INVALID amount.currency: "…" is not an ISO-4217 currency code';
    const html = runPage({
      report: {
        ...{ runId: 'big', mode: 'validate', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:01:00.000Z', aborted: null, traffic: null },
        ...{ counts: { deal: counts }, totals: counts, notAccepted: rows, notListed: 0, errorFiles: [] },
        groups: [{ resource: 'deal' as const, outcome: 'invalid' as const, reason, count: 100_000, examples: [] }],
      },
      exitCode: 1,
      links: [{ label: 'errors CSV: failed.csv', href: './failed.csv' }],
    });
    expect(html.length).toBeLessThan(5_000_000);
    const file = join(tempFiles({}), 'big.html');
    writeFileSync(file, html);
    const opened = await openPage(browser, pathToFileURL(file).href, { offline: true });
    try {
      const { page } = opened;
      page.setDefaultTimeout(5000);
      expect(await page.textContent('#left-out')).toContain('75,000 rows not accepted are counted in the reasons but not listed here');
      expect(await page.textContent('#left-out')).toContain('failed.csv');
      await page.locator('button.reason').click();
      await page.locator('.viewer').evaluate((v) => {
        v.scrollTop = v.scrollHeight;
        v.dispatchEvent(new Event('scroll'));
      });
      await expect.poll(() => page.locator('.viewer tr.row').last().textContent()).toContain('D-24999');
      expect(await page.locator('.viewer tr.row').count()).toBeLessThan(100);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 60_000);

  test('the page holds no API key', () => {
    expect(readFileSync(join(faulty.dir, 'page/run.html'), 'utf8')).not.toContain(KEY);
  });
});

test('an unwritable --html path: exit 2 in one line, before anything is sent', async () => {
  const sb = await startSandbox({ port: 0, apiKey: KEY });
  try {
    const dir = faultyFiles();
    const run = await spawnCli(['push', 'sales-profiles.csv', '--html', 'no/such/folder/run.html'], {
      cwd: dir,
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url },
    });
    expect(run.code).toBe(2);
    const errors = run.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors).toEqual([expect.stringMatching(/^error: cannot write --html no\/such\/folder\/run\.html: /)]);
    expect(sb.batches()).toEqual([]);
  } finally {
    await sb.close();
  }
}, 30_000);

test('validate --html: the page of a validation, its exit code unchanged', async () => {
  const dir = faultyFiles(false);
  const plain = await spawnCli(['validate', '--quiet', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  const run = await spawnCli(['validate', '--quiet', 'sales-profiles.csv', 'deals.csv', '--html', 'valid.html'], { cwd: dir });
  expect([plain.code, run.code]).toEqual([1, 1]);
  const html = readFileSync(join(dir, 'valid.html'), 'utf8');
  expect(html).toContain('<strong>Exit code 1</strong>: some rows not valid');
  expect(html).toContain('batch-sync validate: run');
}, 30_000);
