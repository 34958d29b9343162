import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

const rows = (page: Page) => page.locator('tbody tr[data-testid^="inventory-row-"]');
const cellNumber = (text: string): number => Number(text.replace(/[^\d.]/g, ''));

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => {
    const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: value }));
  }, theme);
}

describe('inventory planning', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('filters, overrides units and percent on two rows, confirms, bulk confirms and keeps them after reload', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/inventory-planning');
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(20);
    // Each row's safety stock against the normal formula's, and their sums on a card.
    expect(await rows(page).first().getByTestId('safety-stock').innerText()).toMatch(
      /^SS [\d,]+ \(([+−][\d,]+|0)\)$/,
    );
    await expect(
      page.getByText('Safety stock vs normal').locator('xpath=../..').innerText(),
    ).resolves.toMatch(/[+−-]?\d+\.\d%[\s\S]*units from forecast quantiles, [\d,]+ by the normal formula/);

    // Filter by a region: every row shown is in it.
    await page.getByRole('combobox', { name: 'Region' }).click();
    await page.getByRole('option', { name: 'EMEA' }).click();
    await page.waitForURL(/region=EMEA/);
    await page.waitForFunction(() =>
      Array.from(
        document.querySelectorAll('tbody tr[data-testid^="inventory-row-"] td:nth-child(2) span'),
        (span) => span.textContent,
      ).every((region) => region === 'EMEA'),
    );
    await rows(page).first().waitFor();

    const first = rows(page).nth(0);
    const second = rows(page).nth(1);
    // The recommended cell reads "48" then "at 95%" underneath.
    const recommended = cellNumber((await first.locator('td').nth(6).innerText()).split('\n')[0]!);
    const units = first.getByLabel(/^Override units for/);
    const percent = second.getByLabel(/^Override percent for/);
    await units.fill(String(recommended + 5));
    await expect(first.getByLabel(/^Override percent for/).inputValue()).resolves.not.toBe('');
    await first.getByRole('combobox', { name: /^Reason code for/ }).click();
    await page.getByRole('option', { name: 'Demand Spike' }).click();
    await first.getByLabel(/^Comments for/).fill('Tender won in Rotterdam');
    await percent.fill('120');
    await expect(second.getByLabel(/^Override units for/).inputValue()).resolves.not.toBe('');
    await second.getByRole('combobox', { name: /^Reason code for/ }).click();
    await page.getByRole('option', { name: 'Seasonal Spike' }).click();
    await expect(page.getByTestId('pending-counter').innerText()).resolves.toBe('2 pending changes');
    expect(await first.getAttribute('data-modified')).toBe('true');
    await screenshot(page, 'inventory-pending');

    // Confirm the first row alone, then Bulk Confirm the rest.
    await first.getByRole('button', { name: /^Confirm / }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="pending-counter"]')?.textContent === '1 pending change',
    );
    await page.getByRole('button', { name: 'Bulk Confirm' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="pending-counter"]')?.textContent === '0 pending changes',
    );
    const firstId = await first.getAttribute('data-testid');
    const secondId = await second.getAttribute('data-testid');
    const secondUnits = await second.getByLabel(/^Override units for/).inputValue();

    await page.reload();
    await rows(page).first().waitFor();
    const firstAgain = page.getByTestId(firstId!);
    const secondAgain = page.getByTestId(secondId!);
    await expect(firstAgain.getByLabel(/^Override units for/).inputValue()).resolves.toBe(
      String(recommended + 5),
    );
    await expect(secondAgain.getByLabel(/^Override percent for/).inputValue()).resolves.toBe('120');
    await expect(secondAgain.getByLabel(/^Override units for/).inputValue()).resolves.toBe(secondUnits);
    // Who and when: the audit of the override is shown on the row.
    expect(await firstAgain.getByTestId('override-by').innerText()).toMatch(/\S+, [\s\S]*\d{2}:\d{2}/);
    const overrideBy = (await firstAgain.getByTestId('override-by').innerText()).split(', ')[0]!;
    // The history panel: who, when, old → new, reason code and comment of each confirmed change.
    await firstAgain.getByRole('button', { name: /^Override history of/ }).click();
    const history = page.getByTestId('override-history');
    await history.getByTestId('history-field').first().waitFor();
    const latest = await history.locator('tbody tr').first().innerText();
    expect(latest).toContain(overrideBy);
    expect(latest).toMatch(/\d{2}:\d{2}/);
    expect(latest).toMatch(
      new RegExp(`Override Units: \\S+ → ${(recommended + 5).toLocaleString('en-US')}\\b`),
    );
    expect(latest).toContain('Demand Spike');
    expect(latest).toContain('Tender won in Rotterdam');
    await screenshot(page, 'inventory-history');
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'hidden' });
    await expect(page.getByText('Overrides Active').locator('xpath=../..').innerText()).resolves.toMatch(
      /[1-9]/,
    );
    await screenshot(page, 'inventory-light');

    await setTheme(page, 'dark');
    await page.reload();
    await rows(page).first().waitFor();
    await screenshot(page, 'inventory-dark');
    await setTheme(page, 'light');
    await context.close();
  });

  it('shows inventory metrics and the S&D match trend with figures, light and dark', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await page.goto('/control-tower/inventory-metrics');
      await page.getByRole('heading', { name: 'By Business Unit (last 52 weeks)' }).waitFor();
      const cards = await page.getByRole('region', { name: 'Inventory Metrics summary' }).innerText();
      expect(cards).not.toContain('—');
      expect(cards).toMatch(/\$[\d,]+/);
      await screenshot(page, `inventory-metrics-${theme}`);

      await page.goto('/control-tower/sd-match-trend');
      await page.getByRole('heading', { name: 'Worst-Matched Products' }).waitFor();
      const sd = await page.getByRole('region', { name: 'S&D Match Trend summary' }).innerText();
      expect(sd).not.toContain('—');
      expect(sd).toMatch(/\d+\.\d{2}%/);
      // Which supply the projection uses: a baseline network plan once one is solved, else the policy.
      expect(await page.getByTestId('supply-source').innerText()).toMatch(
        /^Supply source: (the network plan of optimisation run #\d+ for \d+ of 13 weeks|receipts of the order-up-to policy)/,
      );
      await screenshot(page, `sd-match-${theme}`);
    }
    // A worst-matched product opens its row on the override page. A solved baseline network plan
    // (another browser test may have solved one on this shared server) can serve every week in
    // full: then the screen says that no product is short, and the first product's row is
    // opened by the link's address instead.
    const worst = await page.evaluate(async () => {
      const response = await fetch('/api/inventory/sd-match', {
        headers: { authorization: `Bearer ${localStorage.getItem('id_token')}` },
      });
      return ((await response.json()) as { data: { worst: Array<{ sku: string; site: string }> } }).data
        .worst;
    });
    let sku: string;
    if (worst.length > 0) {
      const link = page.getByRole('table').getByRole('link').first();
      sku = await link.innerText();
      expect(sku).toBe(worst[0]!.sku);
      await link.click();
    } else {
      await page
        .getByText(/^No product is projected short of its final demand plan in the next 13 weeks\.$/)
        .waitFor();
      await page.goto('/inventory-planning');
      await rows(page).first().waitFor();
      sku = await rows(page).first().locator('td').first().innerText();
      await page.goto(`/inventory-planning?sku=${encodeURIComponent(sku)}`);
    }
    await page.waitForURL(/\/inventory-planning\?sku=/);
    await rows(page).first().waitFor();
    expect(await rows(page).first().locator('td').first().innerText()).toBe(sku);
    await setTheme(page, 'light');
    await context.close();
  });
});
