import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from './support/browser';

describe('served web app', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('opens the landing page from the server', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/');
    await expect(page.title()).resolves.toBe('Planning Suite');
    await page.getByText('Transform Your Supply Chain').first().waitFor();
    await screenshot(page, 'smoke-landing');
    await context.close();
  });

  it('serves deep links through history fallback and shows the 404 page for unknown paths', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await page.getByText('404 Page Not Found').waitFor();
    await context.close();
  });

  it('starts from a small entry that preloads none of the framework (the first load, ADR 0011)', async () => {
    // A new import in src/main.tsx that vite.config.ts's ENTRY_MODULE does not list ties the entry
    // to the framework's chunks again: index.html then preloads them before anything can start.
    const html = await (await fetch(`${baseUrl}/`)).text();
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloads.filter((href) => /\/(framework|ui|app|zod)-/.test(href!))).toEqual([]);
    // What runs before the downloads start: the entry and what it preloads (about 9 kB).
    const sizes = await Promise.all(
      [entry, ...preloads].map(async (href) => (await (await fetch(`${baseUrl}${href}`)).text()).length),
    );
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(20_000);
  });

  it('reports the database up on /health', async () => {
    const response = await fetch(`${baseUrl}/health`);
    const body = (await response.json()) as { data: { database: { status: string } } };
    expect(body.data.database.status).toBe('up');
  });
});
