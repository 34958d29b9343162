import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { restoreDefaultSettings, saveSettings } from './support/settings';

const useDarkTheme = async (page: Page) => {
  await page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: 'dark' }));
  });
  await page.reload();
};

/** The plan comparison grid's row as its cells' texts, label first. */
const gridRow = async (page: Page, label: string) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
    .first()
    .locator('th, td')
    .allInnerTexts();

describe('control tower on real data', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows an admin the worksheet with every plan filled from the data, its tracker and charts', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.setViewportSize({ width: 1440, height: 2600 });
    await signIn(page, 'admin');
    await page.goto('/control-tower');
    await page.getByRole('heading', { name: 'CTC Change (Q vs Q+)' }).waitFor();
    // Filters: first company, business unit as 'name (code)', first family.
    await expect(page.locator('#worksheet-business-unit').innerText()).resolves.toMatch(/^.+ \([A-Z]+\)$/);
    const final = await gridRow(page, 'Final Demand Plan');
    expect(final.length).toBeGreaterThan(2);
    expect(final.slice(1).every((cell) => /^-?\$[\d.,]+M$/.test(cell))).toBe(true);
    const p1 = await gridRow(page, 'P1 Final Demand Plan');
    expect(p1.slice(1).some((cell) => /\$/.test(cell))).toBe(true);
    const marketing = await gridRow(page, 'Marketing Forecast');
    expect(marketing.slice(1).some((cell) => /\$/.test(cell))).toBe(true);
    await page
      .getByRole('heading', { name: 'Demand Plan - Marketing Plan Revenue and Cost Delta Tracker' })
      .waitFor();
    await screenshot(page, 'control-tower-worksheet');
    // The browser tests' data starts and ends inside quarters: those are marked partial.
    const firstQuarterHeader = page.locator('section[aria-label^="Plan Comparison"] thead th').nth(1);
    await expect(firstQuarterHeader.innerText()).resolves.toMatch(/^\d{4}-Q[1-4]\s+\d+ of 1[34] wks$/);

    // Scale $K, then the tracker's quarter filter narrows what the rows sum.
    await page.getByRole('button', { name: '$K' }).click();
    expect((await gridRow(page, 'Final Demand Plan')).slice(1).every((c) => /K$/.test(c))).toBe(true);
    await page.getByRole('button', { name: /\(Select All\)/ }).click();
    await page.getByRole('checkbox', { name: '(Select All)' }).click();
    const firstQuarter = page.getByRole('checkbox').nth(1);
    await firstQuarter.check();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('button', { name: /Fiscal Quarter: \d{4}-Q[1-4]$/ }).waitFor();

    await page.getByRole('button', { name: 'Chart' }).click();
    await page.getByRole('heading', { name: 'Quarterly Revenue by Plan' }).waitFor();
    await page.locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    await screenshot(page, 'control-tower-charts');

    await useDarkTheme(page);
    await page.getByRole('heading', { name: 'CTC Change (Q vs Q+)' }).waitFor();
    await screenshot(page, 'control-tower-worksheet-dark');
    await context.close();
  });

  it('shows accuracy, value add and the exception queue, and a circor user only its own data', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.setViewportSize({ width: 1440, height: 2000 });
    await signIn(page, 'circor');
    await page.waitForURL('**/circor');
    await page.getByRole('heading', { name: 'Your headline figures' }).waitFor();
    await page.getByText('Current plan').waitFor();
    const figures = await page.getByRole('region', { name: 'Your headline figures' }).innerText();
    expect(figures).toMatch(/Current plan\s+\$[\d,]+/);
    expect(figures).toMatch(/Forecast accuracy\s+[\d.]+%/);
    await screenshot(page, 'circor-home');

    await page.goto('/control-tower/forecast-accuracy-metrics');
    const cards = page.getByRole('region', { name: 'Forecast Accuracy Metrics summary' });
    await page.waitForFunction(() => /\d+\.\d+%/.test(document.body.innerText));
    expect(await cards.innerText()).toMatch(/Overall Accuracy\s+\d+\.\d{2}%/);
    await page.getByRole('heading', { name: 'Forecast Value Add' }).waitFor();
    await page.getByRole('button', { name: /Alerts/ }).click();
    await page.getByRole('heading', { name: 'Exception Queue' }).waitFor();
    const queue = await page.locator('#exception-queue').innerText();
    expect(queue).not.toMatch(/PRD-/);
    await page.getByRole('button', { name: 'Product', exact: true }).click();
    const table = await page.getByRole('table').last().innerText();
    expect(table).toMatch(/CIR-\d+/);
    expect(table).not.toMatch(/PRD-\d+/);
    await screenshot(page, 'control-tower-accuracy');

    await page.goto('/control-tower');
    await page.getByRole('heading', { name: 'CTC Change (Q vs Q+)' }).waitFor();
    await expect(page.locator('#worksheet-company').innerText()).resolves.toBe('CIRCOR');
    await page.getByRole('tab', { name: 'Product ID Drill Down' }).click();
    await page.getByRole('heading', { name: /^Plan Comparison: CIR-/ }).waitFor();
    await screenshot(page, 'control-tower-drill-down');

    await useDarkTheme(page);
    await page.goto('/control-tower/forecast-accuracy-metrics');
    await page.getByRole('heading', { name: 'Forecast Value Add' }).waitFor();
    await screenshot(page, 'control-tower-accuracy-dark');
    await page.goto('/circor');
    await page.getByRole('heading', { name: 'Your headline figures' }).waitFor();
    await page.waitForFunction(() => /\$[\d,]+/.test(document.body.innerText));
    await screenshot(page, 'circor-home-dark');
    await context.close();
  });

  it('labels the scale and the money deltas in the currency the user chose', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    try {
      await saveSettings(page, { ...DEFAULT_USER_SETTINGS, currency: 'eur' });
      await page.goto('/control-tower');
      await page.getByRole('heading', { name: 'CTC Change (Q vs Q+)' }).waitFor();
      await page.getByRole('button', { name: '€K' }).click();
      await page.getByRole('heading', { name: 'Plan Comparison (Revenue, €K)' }).waitFor();
      expect(await gridRow(page, 'Δ€ Final to Prelim')).not.toHaveLength(0);
      expect(await page.getByRole('button', { name: /\$[KMB]/ }).count()).toBe(0);
      expect((await gridRow(page, 'Final Demand Plan')).slice(1).every((c) => /^-?€[\d.,]+K$/.test(c))).toBe(
        true,
      );
    } finally {
      await restoreDefaultSettings(page);
      await context.close();
    }
  });
});
