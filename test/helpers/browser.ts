// A real browser for the pages batch-sync writes and serves: Debian's chromium driven by
// playwright-core (which downloads nothing; `.ci/run` installs chromium with apt-get). Each page is
// opened as a person opens it, with every request it makes recorded, every console error and
// uncaught exception kept, a screenshot written as a test artifact, and axe-core's accessibility
// check at hand.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser this machine has: $CHROMIUM_PATH, else Debian's chromium; undefined when none. */
function chromiumPath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * Whether browser tests run here. Without a browser they are skipped with one line saying why,
 * except where BATCH_SYNC_REQUIRE_BROWSER is set (CI's `.ci/run`), where a missing browser fails.
 */
export function browserAvailable(): boolean {
  const path = chromiumPath();
  if (path) return true;
  if (process.env.BATCH_SYNC_REQUIRE_BROWSER) {
    throw new Error('BATCH_SYNC_REQUIRE_BROWSER is set but no chromium was found (apt-get install chromium)');
  }
  console.log('browser tests skipped: no chromium here (apt-get install chromium, or set CHROMIUM_PATH)');
  return false;
}

/** Where screenshots go: test-artifacts/ under the checkout (ignored by git), or $BATCH_SYNC_ARTIFACTS. */
const ARTIFACTS = resolve(process.env.BATCH_SYNC_ARTIFACTS ?? join(__dirname, '../../test-artifacts'));

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no chromium: call browserAvailable() first');
  // --no-sandbox: CI runs as root, where chromium's sandbox refuses to start
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export interface OpenedPage {
  page: Page;
  /** Every URL the page asked for, its own included. */
  requests: string[];
  /** Console errors and uncaught exceptions, as text. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Opens `url` in a fresh context of `size` (a person's window by default). Requests are recorded;
 * with `offline` every request but the page's own file:// URL is refused, as opening a saved report
 * on a machine with no network would.
 */
export async function openPage(browser: Browser, url: string, options: { offline?: boolean; width?: number; height?: number } = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    offline: options.offline ?? false,
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, errors, close: () => context.close() };
}

/** A full-page screenshot kept under ARTIFACTS/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

const require = createRequire(__filename);

/** axe-core's check of the page as it stands; the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // evaluated through the debugging protocol, so that a page's Content-Security-Policy (which
  // refuses an injected <script>) does not stand in the way
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    // axe was injected into the page above; the page's globals are not in this file's types
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return (result.violations as { id: string; impact: string | null; help: string; nodes: unknown[] }[]).map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Whether a request the page made is to itself: its own origin, or for a file:// page that file only. */
function ownRequest(pageUrl: string, request: string): boolean {
  const origin = new URL(pageUrl).origin;
  return origin === 'null' ? request === pageUrl : request.startsWith(`${origin}/`);
}

/**
 * Opens `url` (as openPage does), runs the test's own `steps` on it, then checks what every page
 * test checks: no console error or uncaught exception, no request but to the page's own origin (to
 * its own file, for a file:// page), no serious axe violation; keeps a screenshot when `screenshot`
 * names one. The page is closed whatever happens.
 */
export async function checkPage(
  browser: Browser,
  url: string,
  options: { offline?: boolean; screenshot?: string },
  steps: (opened: OpenedPage) => Promise<void>,
): Promise<void> {
  const opened = await openPage(browser, url, { offline: options.offline });
  try {
    await steps(opened);
    expect(opened.errors).toEqual([]);
    expect(opened.requests.filter((request) => !ownRequest(url, request))).toEqual([]);
    expect(await seriousViolations(opened.page)).toEqual([]);
    if (options.screenshot) await screenshot(opened.page, options.screenshot);
  } finally {
    await opened.close();
  }
}
