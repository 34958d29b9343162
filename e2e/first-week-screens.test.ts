import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

/**
 * What a planner meets on the other screens in their first week: money figures that stay inside
 * their cards, the Stockouts and Turnover chart's own subtitle, and an inventory override table
 * that fits its card and finds a SKU.
 */
const inventoryRows = (page: Page) => page.locator('tbody tr[data-testid^="inventory-row-"]');

/** How far each element reaches past the right edge of its closest `container`, or overflows itself (0: inside). */
async function overflowPast(elements: Locator, container: string): Promise<number[]> {
  return elements.evaluateAll(
    (nodes, selector) =>
      nodes.map((node) => {
        const box = node.closest(selector)!.getBoundingClientRect();
        const past = Math.round(node.getBoundingClientRect().right - box.right);
        return Math.max(0, past, node.scrollWidth - node.clientWidth);
      }),
    container,
  );
}

describe('first week on the other screens', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('keeps the dashboard money figures inside their cards with the chat open', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, 'admin');
    await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();
    await expect.poll(() => page.getByTestId('metric-Current Publish Value').textContent()).toMatch(/\$/);
    await page.getByRole('button', { name: 'Open AI assistant' }).click();
    await page.getByRole('complementary', { name: 'AI Assistant' }).waitFor();
    const figures = page.locator('[data-testid^="metric-"]');
    await expect.poll(() => overflowPast(figures, '[aria-busy]')).toEqual([0, 0, 0, 0]);
    await screenshot(page, 'first-week-dashboard-chat-open');
    await context.close();
  });

  it("gives the Stockouts and Turnover chart its own subtitle, not the on-hand chart's", async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/control-tower/inventory-metrics');
    await page.getByText('Stockouts and Turnover', { exact: true }).waitFor();
    await page.getByText('Stockouts and inventory turnover by week, last 52 weeks').waitFor();
    await expect(page.getByText('On-hand inventory against target order-up-to levels').count()).resolves.toBe(
      0,
    );
    await context.close();
  });

  it('fits the inventory override table in its card at 1440 px and finds a SKU by part of it', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/inventory-planning');
    await inventoryRows(page).first().waitFor();
    // The widest row is one that carries a confirmed override: who made it and when show under
    // its actions.
    const first = inventoryRows(page).first();
    await first.getByLabel(/^Override percent for/).fill('110');
    await first.getByRole('combobox', { name: /^Reason code for/ }).click();
    await page.getByRole('option', { name: 'Demand Spike' }).click();
    await first.getByRole('button', { name: /^Confirm / }).click();
    await first.getByTestId('override-by').waitFor();
    const table = page.getByTestId('inventory-table');
    await screenshot(page, 'first-week-inventory-table');
    const scroller = await table.evaluate((element) => {
      const parent = element.parentElement!;
      return { scroll: parent.scrollWidth, client: parent.clientWidth };
    });
    expect(scroller.scroll).toBeLessThanOrEqual(scroller.client);
    // The last column's controls are on screen without scrolling sideways.
    const confirm = inventoryRows(page)
      .first()
      .getByRole('button', { name: /^Confirm .+ at / });
    const box = await confirm.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1440);

    const sku = (await inventoryRows(page).first().locator('td').first().innerText()).trim();
    const part = sku.slice(-4).toLowerCase();
    await page.getByLabel('SKU', { exact: true }).fill(part);
    await page.getByLabel('SKU', { exact: true }).press('Enter');
    await page.waitForURL(new RegExp(`search=${part}`));
    await expect
      .poll(async () =>
        (await inventoryRows(page).locator('td:first-child').allInnerTexts()).every((text) =>
          text.toLowerCase().includes(part),
        ),
      )
      .toBe(true);
    await expect(inventoryRows(page).count()).resolves.toBeGreaterThan(0);
    await context.close();
  });
});
