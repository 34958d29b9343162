import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { restoreDefaultSettings } from './support/settings';

const sidebar = (page: Page) => page.getByTestId('sidebar');
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const storage = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

describe('shell: signed in as admin', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await signIn(page, 'admin');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('navigates with the sidebar, including the Control tower group', async () => {
    await page.goto('/demand-planning');
    await mainNav(page).getByRole('link', { name: 'Supply chain optimization' }).click();
    await page.waitForURL('**/optichain');
    await heading(page, 'Supply Chain Network Optimization').waitFor();
    await expect(
      mainNav(page).getByRole('link', { name: 'Supply chain optimization' }).getAttribute('aria-current'),
    ).resolves.toBe('page');

    // The group's row opens the group; its default worksheet is the Demand Planning Review child.
    await mainNav(page).getByRole('button', { name: 'Expand Control tower' }).click();
    const children = mainNav(page).locator('#sidebar-control-tower-children');
    await expect(children.getByRole('link').allInnerTexts()).resolves.toEqual([
      'Forecast Acc. Metrics',
      'Inventory Metrics',
      'S&D Match Trend',
      'Demand Planning Review',
    ]);
    await children.getByRole('link', { name: 'Inventory Metrics' }).click();
    await page.waitForURL('**/control-tower/inventory-metrics');
    await heading(page, 'Inventory Metrics').waitFor();
    await expect(page.getByText('Target 95%').isVisible()).resolves.toBe(true);
    await children.getByRole('link', { name: 'Demand Planning Review' }).click();
    await page.waitForURL((url) => url.pathname === '/demand-planning-review');

    await mainNav(page).getByRole('button', { name: 'Collapse Control tower' }).click();
    await expect(children.count()).resolves.toBe(0);

    // Footer: Profile goes to /profile, reached with the keyboard.
    await sidebar(page).getByRole('button', { name: 'Profile' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/profile');
    await heading(page, 'Profile').waitFor();
    await expect(page.getByText('admin@demo.local').first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('list', { name: 'Groups' }).innerText()).resolves.toContain('admin');
  });

  it('shows the Coming Soon alert for Quality control without navigating', async () => {
    await page.goto('/optichain');
    const item = mainNav(page).getByRole('button', { name: /Quality control/ });
    await expect(item.innerText()).resolves.toContain('Coming Soon');
    await item.click();
    const alert = page.getByRole('alertdialog');
    await expect(alert.getByText('This feature is coming soon!').isVisible()).resolves.toBe(true);
    expect(new URL(page.url()).pathname).toBe('/optichain');
    await alert.getByRole('button', { name: 'OK' }).click();
    await alert.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/optichain');
  });

  it('collapses the sidebar to the narrow form and remembers it in ui-preferences', async () => {
    await page.goto('/control-tower/forecast-accuracy-metrics');
    await heading(page, 'Forecast Accuracy Metrics').waitFor();
    expect((await sidebar(page).boundingBox())?.width).toBe(256);
    await screenshot(page, 'shell-sidebar-wide');

    await sidebar(page).getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(sidebar(page).getAttribute('data-collapsed')).resolves.toBe('true');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().width === 64,
    );
    expect(JSON.parse((await storage(page, 'ui-preferences'))!)).toMatchObject({ sidebarCollapsed: true });

    await page.reload();
    await heading(page, 'Forecast Accuracy Metrics').waitFor();
    expect((await sidebar(page).boundingBox())?.width).toBe(64);
    // Narrow items keep their names for assistive technology and still navigate.
    await mainNav(page).getByRole('link', { name: 'Supply chain optimization' }).click();
    await page.waitForURL('**/optichain');
    await screenshot(page, 'shell-sidebar-narrow');

    await sidebar(page).getByRole('button', { name: 'Expand sidebar' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().width === 256,
    );
    expect(JSON.parse((await storage(page, 'ui-preferences'))!)).toMatchObject({ sidebarCollapsed: false });
  });

  it('opens the user menu from the keyboard with name, email, role and organisation', async () => {
    await page.goto('/optichain');
    const trigger = page.getByTestId('user-menu-trigger');
    await expect(trigger.innerText()).resolves.toContain('DA');
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    const text = await menu.innerText();
    for (const expected of [
      'Demo Admin',
      'admin@demo.local',
      'Demand Planner',
      'Supply Chain Planning',
      'Sign Out',
    ]) {
      expect(text).toContain(expected);
    }
    // The menu opens with focus on its first item; arrows move through the items.
    // Focus moves on the next frame after a key press: wait for it rather than reading at once.
    const focusReaches = (text: string) =>
      page.waitForFunction((t) => document.activeElement?.textContent?.includes(t) ?? false, text, {
        timeout: 5_000,
      });
    await focusReaches('Settings & Preferences');
    await page.keyboard.press('ArrowDown');
    await focusReaches('Sign Out');
    await page.keyboard.press('ArrowUp');
    await focusReaches('Settings & Preferences');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Settings & Preferences' });
    await dialog.waitFor();

    // Focus stays inside the dialog however far the user tabs.
    for (let i = 0; i < 40; i += 1) await page.keyboard.press('Tab');
    await expect(
      page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))),
    ).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe(
      'user-menu-trigger',
    );
  });

  it('saves settings under userSettings, applies the theme to the page root and keeps them after reload', async () => {
    await page.goto('/control-tower/sd-match-trend');
    await heading(page, 'S&D Match Trend').waitFor();
    await expect(page.evaluate(() => document.documentElement.className)).resolves.toContain('light');

    await sidebar(page).getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings & Preferences' });
    await dialog.waitFor();
    await screenshot(page, 'shell-settings-light');

    const choose = async (label: string, option: string) => {
      await dialog.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('Theme', 'Dark');
    await choose('Number Format', 'Indian (12,34,567.89)');
    await choose('Date Format', 'DD/MM/YYYY');
    await choose('Currency', 'INR (₹)');
    await choose('Default View Level', 'Business Unit Level');
    await choose('Default Drill Down', 'Monthly');
    await choose('Session Timeout', '2 hours');
    await dialog.getByRole('switch', { name: 'Compact View' }).click();
    // Not applied before saving.
    await expect(page.evaluate(() => document.documentElement.className)).resolves.toContain('light');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();

    const toast = page.getByTestId('toast').filter({ hasText: 'Settings Saved' });
    await toast.waitFor();
    await expect(toast.innerText()).resolves.toContain('Your preferences have been saved successfully.');
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      true,
    );
    await expect(page.evaluate(() => document.documentElement.classList.contains('light'))).resolves.toBe(
      false,
    );

    const saved = JSON.parse((await storage(page, 'userSettings'))!) as Record<string, unknown>;
    expect(saved).toMatchObject({
      theme: 'dark',
      numberFormat: 'indian',
      dateFormat: 'dd/mm/yyyy',
      currency: 'inr',
      defaultViewLevel: 'business_unit',
      defaultDrillDown: 'monthly',
      sessionTimeout: '120',
      compactView: true,
      language: 'english',
      dataRefreshInterval: '60',
    });
    await expect(storage(page, 'theme')).resolves.toBe('dark');
    expect(JSON.parse((await storage(page, 'ui-preferences'))!)).toMatchObject({ theme: 'dark' });

    await page.reload();
    await heading(page, 'S&D Match Trend').waitFor();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      true,
    );
    await screenshot(page, 'shell-dark');
    await sidebar(page).getByRole('button', { name: 'Settings' }).click();
    await dialog.waitFor();
    await expect(dialog.getByRole('combobox', { name: 'Number Format' }).innerText()).resolves.toBe(
      'Indian (12,34,567.89)',
    );
    await expect(
      dialog.getByRole('switch', { name: 'Compact View' }).getAttribute('aria-checked'),
    ).resolves.toBe('true');
    await screenshot(page, 'shell-settings-dark');

    // Cancel discards edits.
    await choose('Theme', 'Light');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      true,
    );

    // The saved formats reach the planning screen: Indian grouping and the rupee symbol.
    await page.goto('/demand-planning');
    await page
      .getByText(/^₹\d{1,2}(,\d{2})*,\d{3}$/)
      .first()
      .waitFor();

    // Back to light for the tests that follow.
    await page.goto('/optichain');
    await sidebar(page).getByRole('button', { name: 'Settings' }).click();
    await choose('Theme', 'Light');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.evaluate(() => document.documentElement.classList.contains('light'))).resolves.toBe(
      true,
    );
    await restoreDefaultSettings(page);
  });

  it('shows one toast at a time and removes it after 5 seconds', async () => {
    await page.goto('/optichain');
    await heading(page, 'Supply Chain Network Optimization').waitFor();
    await page.evaluate(() => {
      for (const title of ['First toast', 'Second toast'])
        window.dispatchEvent(new CustomEvent('ps:toast', { detail: { title, variant: 'destructive' } }));
    });
    const toasts = page.getByTestId('toast');
    await toasts.filter({ hasText: 'Second toast' }).waitFor();
    await expect(toasts.count()).resolves.toBe(1);
    await expect(toasts.first().getAttribute('data-variant')).resolves.toBe('destructive');
    const shownAt = Date.now();
    await page.mouse.move(1400, 50); // away from the toast: hovering pauses its timer
    await toasts.first().waitFor({ state: 'detached', timeout: 10_000 });
    const lifetime = Date.now() - shownAt;
    expect(lifetime).toBeGreaterThan(3500);
    expect(lifetime).toBeLessThan(8000);
  });
});

describe('shell: signed in as the customer', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows the customer home with its logo and only the screens the customer may open', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'circor');
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
    await expect(page.locator('[data-brand="circor"]').first().isVisible()).resolves.toBe(true);
    await expect(mainNav(page).getByRole('link').allInnerTexts()).resolves.toEqual([
      'Home',
      'Inventory planning',
    ]);
    await mainNav(page).getByRole('button', { name: 'Expand Control tower' }).waitFor();
    await screenshot(page, 'shell-circor-home');
    await page.getByRole('link', { name: /Forecast Accuracy Metrics/ }).click();
    await heading(page, 'Forecast Accuracy Metrics').waitFor();
    // Off the customer's own route the product logo comes back.
    await expect(page.locator('[data-brand="circor"]').count()).resolves.toBe(0);
    await context.close();
  });
});
