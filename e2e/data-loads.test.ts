import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { gridCellText } from './support/grid';

/** The sample data pack the README points to (npm run sample-data). */
const PACK = resolve('docs/sample-data');
const PRODUCTS = 48;
const WEEKS = 2_496;

type Counts = Record<'inserted' | 'updated' | 'unchanged' | 'refused', number>;

/** Chooses the entity and file on the Data page, runs a dry run or a load, and reads its counts. */
async function runLoad(
  page: Page,
  entity: string,
  file: string,
  button: 'Dry Run' | 'Load',
): Promise<Counts> {
  await page.getByLabel('Data to load', { exact: true }).click();
  await page.getByRole('option', { name: entity, exact: true }).click();
  await page.getByLabel('File (.csv or .xlsx)').setInputFiles(resolve(PACK, file));
  await page.getByRole('button', { name: button, exact: true }).click();
  const outcome = button === 'Load' ? 'Loaded' : 'Dry run: nothing was written';
  const result = page.getByRole('region', { name: 'Load result' });
  await result.getByText(outcome, { exact: true }).waitFor({ timeout: 60_000 });
  const count = async (name: keyof Counts) =>
    Number((await result.locator(`[data-count="${name}"]`).innerText()).replace(/\D/g, ''));
  return {
    inserted: await count('inserted'),
    updated: await count('updated'),
    unchanged: await count('unchanged'),
    refused: await count('refused'),
  };
}

describe('data page', () => {
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

  it('loads the sample pack (dry run, then load), shows its products in the grid, and reports a second load unchanged', async () => {
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByRole('heading', { name: 'Data', exact: true }).waitFor();

    expect(await runLoad(page, 'Products', 'products.csv', 'Dry Run')).toEqual({
      inserted: PRODUCTS,
      updated: 0,
      unchanged: 0,
      refused: 0,
    });
    expect(await runLoad(page, 'Products', 'products.csv', 'Load')).toEqual({
      inserted: PRODUCTS,
      updated: 0,
      unchanged: 0,
      refused: 0,
    });
    expect(await runLoad(page, 'Sales history', 'sales-history.csv', 'Dry Run')).toEqual({
      inserted: WEEKS,
      updated: 0,
      unchanged: 0,
      refused: 0,
    });
    expect(await runLoad(page, 'Sales history', 'sales-history.csv', 'Load')).toEqual({
      inserted: WEEKS,
      updated: 0,
      unchanged: 0,
      refused: 0,
    });
    // The inventory files: lead times first (they stock the products at their sites), then the
    // stock and the open order lines.
    for (const [entity, file, keys] of [
      ['Lead times', 'lead-times.csv', 30],
      ['Inventory positions', 'inventory-positions.csv', 30],
      ['Open orders', 'open-orders.csv', 90],
    ] as const)
      expect(await runLoad(page, entity, file, 'Load'), entity).toEqual({
        inserted: keys,
        updated: 0,
        unchanged: 0,
        refused: 0,
      });
    // The load log lists all four, newest first.
    const log = page.getByRole('table', { name: 'Load Log' });
    await expect.poll(() => log.locator('tbody tr').count()).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'data-page-loaded');

    expect(await runLoad(page, 'Products', 'products.csv', 'Load')).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: PRODUCTS,
      refused: 0,
    });
    expect(await runLoad(page, 'Sales history', 'sales-history.csv', 'Load')).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: WEEKS,
      refused: 0,
    });

    // Loaded sales are history: the page opens on the plan horizon, so the link asks for history.
    await page.goto('/demand-planning?period=history');
    await page.getByLabel('Product ID', { exact: true }).fill('ACME-CP-101');
    await page.getByLabel('Product ID', { exact: true }).press('Enter');
    // The default level is by product family: the product's family row, holding its loaded actuals.
    await expect.poll(() => gridCellText(page, 0, 'PF'), { timeout: 30_000 }).toBe('Centrifugal Pumps');
    expect(await gridCellText(page, 0, 'BU')).toBe('Pumps');
    const actualUnits = Number(((await gridCellText(page, 0, 'Act_Bkg_Units')) ?? '').replace(/\D/g, ''));
    expect(actualUnits).toBeGreaterThan(0);
    await screenshot(page, 'data-grid-sample-product');

    // Inventory planning stocks it at its home site with the loaded lead time and stock.
    await page.goto('/inventory-planning?sku=ACME-CP-101');
    const row = page.locator('tbody tr[data-testid="inventory-row-ACME-CP-101-Houston"]');
    await row.waitFor({ timeout: 30_000 });
    expect(await row.innerText()).toContain('Houston');
    await screenshot(page, 'data-inventory-sample-product');
  }, 300_000);
});
