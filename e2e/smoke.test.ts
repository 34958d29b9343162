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

  it('reports the database up on /health', async () => {
    const response = await fetch(`${baseUrl}/health`);
    const body = (await response.json()) as { data: { database: { status: string } } };
    expect(body.data.database.status).toBe('up');
  });
});
