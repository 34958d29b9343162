import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage } from './support/browser';

const FIRST_ROW = '[data-testid="demand-grid"] .ag-row[row-index="0"] [col-id="PF"]';

/** What the first screen of the planning page may ask for before its first grid row is on screen. */
const FIRST_SCREEN_REQUESTS = new Set([
  '/api/auth/config',
  '/api/demand-planning/grid',
  // The notes of the first page's cells, asked for as soon as the page is there (ADR 0017).
  '/api/demand-planning/grid/notes',
  '/api/demand-planning/filter-options',
  '/api/exchange-rates',
  '/api/dashboard-metrics',
  '/api/summary-stats',
  '/api/user-settings',
  '/api/clock',
  '/api/demand-planning/events',
]);

type Seen = {
  firstRowAt?: number;
  wasScreenLoadingShown: boolean;
  requests: Array<{ path: string; query: string; at: number }>;
};

describe('a cold load of the planning page', () => {
  let browser: Browser;
  let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
  const baseUrl = inject('baseUrl');

  beforeAll(async () => {
    browser = await launchBrowser();
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    storageState = await context.storageState();
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks for nothing but its first screen until the first grid row is on screen, and reads ahead only after', async () => {
    // A new context: an empty HTTP cache, the sign-in kept.
    const context = await browser.newContext({
      baseURL: baseUrl,
      storageState,
      viewport: { width: 1440, height: 1600 },
    });
    // The page notes, in its own time, each request it starts, when the first row shows, and
    // whether a screen's loading state was ever drawn.
    await context.addInitScript((selector) => {
      const seen: Seen = { wasScreenLoadingShown: false, requests: [] };
      (window as unknown as { seen: Seen }).seen = seen;
      const fetchOf = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        seen.requests.push({ path: url.pathname, query: url.search, at: performance.now() });
        return fetchOf(input, init);
      };
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="screen-loading"]')) seen.wasScreenLoadingShown = true;
        if (seen.firstRowAt === undefined && document.querySelector(selector)?.checkVisibility())
          seen.firstRowAt = performance.now();
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
    }, FIRST_ROW);
    const page = await context.newPage();
    try {
      await page.goto('/demand-planning');
      await page.locator(FIRST_ROW).first().waitFor();
      // The deferred requests follow: the notifications, then the adjacent levels read ahead.
      await expect
        .poll(
          () => page.evaluate(() => (window as unknown as { seen: Seen }).seen.requests.map((r) => r.query)),
          {
            timeout: 20_000,
          },
        )
        .toContainEqual(expect.stringContaining('viewLevel=sku'));
      const seen = await page.evaluate(() => (window as unknown as { seen: Seen }).seen);
      const firstRowAt = seen.firstRowAt!;
      expect(firstRowAt).toBeGreaterThan(0);

      const before = seen.requests.filter((r) => r.at < firstRowAt);
      const after = seen.requests.filter((r) => r.at >= firstRowAt);
      // Only the first screen's own requests, and of the grid only its first page.
      expect(before.map((r) => r.path).filter((path) => !FIRST_SCREEN_REQUESTS.has(path))).toEqual([]);
      expect(before.filter((r) => r.path === '/api/demand-planning/grid')).toHaveLength(1);
      // What it put off did start, after the first row.
      const paths = after.map((r) => r.path);
      for (const path of [
        '/api/notifications',
        '/api/saved-views',
        '/api/planning-policy',
        '/api/forecast/runs',
      ])
        expect(paths).toContain(path);
      // Read-ahead waits a while after the first row (a page opened and left reads nothing ahead).
      const readAhead = after.filter((r) => r.path === '/api/demand-planning/grid');
      expect(readAhead.length).toBeGreaterThan(0);
      expect(Math.min(...readAhead.map((r) => r.at))).toBeGreaterThanOrEqual(firstRowAt + 1_000);
      // The screen was drawn with the app's first render, never its loading state first.
      expect(seen.wasScreenLoadingShown).toBe(false);
    } finally {
      await context.close();
    }
  });
});
