import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage } from './support/browser';
import { saveSettings } from './support/settings';

const MINUTE = 60_000;

/** The stored token expiry, which the OIDC library's silent renewal moves on. */
const tokenExpiry = (page: Page) => page.evaluate(() => Number(localStorage.getItem('token_expires_at')));

/**
 * Waits (in real time) for the silent renewal that a clock jump past "expiring" started: tokens
 * live 30 minutes, as long as the shortest sessionTimeout, so an idle half hour always crosses one.
 */
async function waitForRenewal(page: Page, before: number): Promise<number> {
  await expect.poll(() => tokenExpiry(page), { timeout: 30_000 }).toBeGreaterThan(before);
  return tokenExpiry(page);
}

/**
 * Still signed in: no sign-out began (its redirect waits on the page's paused clock, so the address
 * alone would not tell). Revocation and clearing the tokens run on real time: give them a moment.
 */
async function expectSignedIn(page: Page): Promise<void> {
  await page.waitForTimeout(1_000);
  expect(await page.getByText('Logged Out', { exact: true }).count()).toBe(0);
  expect(await page.evaluate(() => localStorage.getItem('id_token'))).not.toBeNull();
  expect(new URL(page.url()).pathname).toBe('/demand-planning');
}

/**
 * The user setting sessionTimeout signs out a planner who does nothing for that
 * long; activity starts the wait again. The shortest setting is 30 minutes, so the page's clock is
 * Playwright's, moved forward (the server's clock and the token checks there stay real).
 */
describe('inactivity sign-out', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('signs out after sessionTimeout without activity, and activity resets the wait', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    try {
      await signIn(page, 'admin');
      // The settings cache the app reads at start, and the server's copy it syncs from.
      await saveSettings(page, { ...DEFAULT_USER_SETTINGS, sessionTimeout: '30' });
      await page.clock.install();
      await page.goto('/demand-planning');
      await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
      let expiry = await tokenExpiry(page);

      // 29.5 idle minutes: still signed in (the token renews silently on the way).
      await page.clock.fastForward(29.5 * MINUTE);
      expiry = await waitForRenewal(page, expiry);
      await expectSignedIn(page);

      // Activity, then 5 more minutes: past 30 minutes since the page opened, not since the activity.
      await page.mouse.move(400, 300);
      await page.mouse.move(420, 320);
      await page.keyboard.press('Shift');
      await page.clock.fastForward(5 * MINUTE);
      await expectSignedIn(page);

      // Up to just before the deadline (the token renews again), then past it: signed out.
      await page.clock.fastForward(24 * MINUTE);
      await waitForRenewal(page, expiry);
      await expectSignedIn(page);
      await page.clock.fastForward(1.5 * MINUTE);
      await page.getByText('Logged Out', { exact: true }).first().waitFor({ timeout: 15_000 });
      await page.clock.runFor(5_000);
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      expect(await page.evaluate(() => localStorage.getItem('id_token'))).toBeNull();
    } finally {
      // Sign in again to put the server's copy of the settings back for the other tests.
      await page.clock.resume().catch(() => undefined);
      await context.close();
      const { context: cleanup, page: again } = await newPage(browser, baseUrl);
      await signIn(again, 'admin');
      await saveSettings(again, DEFAULT_USER_SETTINGS);
      await cleanup.close();
    }
  });
});
