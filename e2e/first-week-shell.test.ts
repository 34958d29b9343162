import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS, signIn } from './support/auth';
import { launchBrowser, newPage } from './support/browser';

/**
 * What a new user meets in their first week around signing in and finding their way: deep links
 * that survive sign-in, / and Return to Home taking a signed-in user into the app, a user in no
 * group who fires no refused call, and a sidebar with one entry per page.
 */
const pathOf = (page: Page) => new URL(page.url()).pathname;
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function signInOnProviderPage(page: Page, user: keyof typeof DEMO_USERS): Promise<void> {
  await page.locator('#email').waitFor();
  await page.locator('#email').fill(DEMO_USERS[user].email);
  await page.locator('#password').fill(DEMO_USERS[user].password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('first week: signing in and finding the way', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('keeps a deep link opened while signed out when Login is pressed on the landing page', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/control-tower/inventory-metrics');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Login' }).first().click();
    await signInOnProviderPage(page, 'admin');
    await page.waitForURL((url) => url.pathname === '/control-tower/inventory-metrics', { timeout: 30_000 });
    await context.close();
  });

  it('brings a user whose token expired back to their screen after signing in again', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/control-tower/sd-match-trend');
    await page.getByRole('heading', { level: 1, name: 'S&D Match Trend' }).waitFor();
    // The session runs out: every stored token is past its expiry, as after a night away.
    await page.evaluate(() => {
      const past = String(Date.now() - 60_000);
      localStorage.setItem('token_expires_at', past);
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith('oidc.user:'))) {
        const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { expires_at?: number };
        user.expires_at = Math.floor(Date.now() / 1000) - 60;
        localStorage.setItem(key, JSON.stringify(user));
      }
    });
    await page.reload();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Login' }).first().click();
    await signInOnProviderPage(page, 'admin');
    await page.waitForURL((url) => url.pathname === '/control-tower/sd-match-trend', { timeout: 30_000 });
    await context.close();
  });

  it('takes a signed-in user at / into the app, and Access Denied back to their home', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'circor');
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/circor');
    await page.goto('/demand-planning');
    await page.waitForURL((url) => url.pathname === '/unauthorized');
    await page.getByText('/demand-planning requires: admin').waitFor();
    // Opened again (the same address reloaded), /unauthorized does not repeat the earlier denial.
    await page.reload();
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await expect(page.getByText('requires:').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/circor');
    await context.close();
  });

  it('lets a user in no group load their settings and fires no refused call', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(new URL(response.url()).pathname);
    });
    const settingsLoaded = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/user-settings' && response.status() === 200,
    );
    await signIn(page, 'viewer');
    await settingsLoaded;
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await page.goto('/demand-planning');
    await page.waitForURL((url) => url.pathname === '/unauthorized');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    await context.close();
  });

  it('gives each page one sidebar entry, and circor a Home', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/control-tower/forecast-accuracy-metrics');
    await mainNav(page).getByRole('link').first().waitFor();
    const targets = await mainNav(page)
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    const pages = targets.map((path) => (path === '/control-tower' ? '/demand-planning-review' : path));
    expect(new Set(pages).size).toBe(pages.length);
    await context.close();

    const circor = await newPage(browser, baseUrl);
    await signIn(circor.page, 'circor');
    await circor.page.goto('/control-tower');
    await mainNav(circor.page).getByRole('link', { name: 'Home' }).click();
    await circor.page.waitForURL((url) => url.pathname === '/circor');
    expect(pathOf(circor.page)).toBe('/circor');
    await circor.context.close();
  });
});
