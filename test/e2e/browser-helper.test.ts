// The browser the page tests stand on: it opens a file, records the requests a page makes, keeps
// console errors, and axe-core finds a violation that is there. If any of these failed quietly, the
// page tests would pass on nothing.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { htmlPage } from '../../src/util/html-page.js';
import { browserAvailable, checkPage, launchBrowser, openPage, screenshot, seriousViolations } from '../helpers/browser.js';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><main><h1>Report</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p id="n">3 rows</p></main>
<script>console.error('on purpose'); fetch('http://127.0.0.1:9/never').catch(() => {});</script></body></html>`;

describe.runIf(browserAvailable())('the browser tests stand on a real browser', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), 'batch-sync-browser-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a page from disk: its text, its requests, its console errors, axe, a screenshot', async () => {
    const file = join(dir, 'page.html');
    writeFileSync(file, PAGE);
    const opened = await openPage(browser, pathToFileURL(file).href, { offline: true });
    try {
      expect(await opened.page.textContent('#n')).toBe('3 rows');
      await opened.page.waitForTimeout(100);
      expect(opened.requests).toContain('http://127.0.0.1:9/never');
      expect(opened.errors.join('\n')).toContain('on purpose');
      const violations = await seriousViolations(opened.page);
      expect(violations.map((v) => v.id)).toContain('image-alt');
      const png = await screenshot(opened.page, 'browser-helper');
      expect(statSync(png).size).toBeGreaterThan(1000);
    } finally {
      await opened.close();
    }
  }, 60_000);

  test('htmlPage: its script runs under its policy, the data shows as text, nothing from the data runs', async () => {
    const hostile = '</script><script>document.title="pwned"</script><img src=x onerror="document.title=1">';
    const file = join(dir, 'built.html');
    writeFileSync(
      file,
      htmlPage({
        title: 'built',
        style: 'main{font-family:sans-serif}',
        script: `document.getElementById('v').textContent = JSON.parse(document.getElementById('page-data').textContent).cell;`,
        body: '<main><h1>Built</h1><p id="v"></p></main>',
        data: { cell: hostile },
      }),
    );
    const opened = await openPage(browser, pathToFileURL(file).href, { offline: true });
    try {
      expect(await opened.page.textContent('#v')).toBe(hostile);
      expect(await opened.page.title()).toBe('built');
      expect(opened.errors).toEqual([]);
      expect(opened.requests).toEqual([pathToFileURL(file).href]);
      expect(await seriousViolations(opened.page)).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 60_000);

  test("checkPage fails a page with a console error, a request elsewhere or an axe violation, after the test's own steps", async () => {
    const file = join(dir, 'page.html');
    writeFileSync(file, PAGE);
    let stepsRan = false;
    const check = checkPage(browser, pathToFileURL(file).href, { offline: true }, async ({ page }) => {
      expect(await page.textContent('#n')).toBe('3 rows');
      await page.waitForTimeout(100);
      stepsRan = true;
    });
    await expect(check).rejects.toThrow(/on purpose/);
    expect(stepsRan).toBe(true);
  }, 60_000);
});
