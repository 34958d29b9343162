import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { chooseOption, pageApi, waitForGridIdle } from './support/planning-page';
import { launchBrowser, newPage } from './support/browser';
import { editCell, gridCell } from './support/grid';

/**
 * What a planner meets on the demand planning page in their first week: the row-detail panel
 * after a save, Select All under a search, and the roll-up footer note.
 */
describe('first week on the demand planning page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await page.setViewportSize({ width: 1440, height: 1800 });
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await waitForGridIdle(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('says at roll-up levels that an edit to a rolled-up cell is spread over its records', async () => {
    const note = page.getByTestId('grid-footer-note');
    await expect
      .poll(() => note.textContent())
      .toContain('An edit to a rolled-up cell is spread over its records.');
    expect(await note.textContent()).not.toContain('original table');
  });

  it("selects only the values matching the search with the filters' Select All", async () => {
    await page.getByTestId('filter-Product Family').click();
    const list = page.getByRole('list', { name: 'Product Family options' });
    const first = ((await list.locator('label span').first().textContent()) ?? '').trim();
    const needle = first.slice(0, 3);
    await page.getByLabel('Search Product Family').fill(needle);
    const shown = await list.locator('label').count();
    const all = (await pageApi<{ productFamilies: unknown[] }>(page, '/api/demand-planning/filter-options'))
      .productFamilies.length;
    expect(shown).toBeLessThan(all);
    await expect(page.getByText(`Select All (${shown})`).count()).resolves.toBe(1);
    await page.getByText(`Select All (${shown})`).click();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByTestId('filter-Product Family').textContent())
      .toContain(shown === 1 ? first : `${shown} selected`);
    await page.getByTestId('filter-Product Family').click();
    await page.getByRole('button', { name: 'Clear' }).click();
    await waitForGridIdle(page);
  });

  it('shows the saved figures in the row-detail panel right after a save', async () => {
    await chooseOption(page, 'View Level', 'None (Show Original Table)');
    await chooseOption(page, 'Drill Down', 'None (No Time Grouping)');
    await waitForGridIdle(page);
    // A future record of a product away from those the other browser tests edit.
    const { rows } = await pageApi<{ rows: Array<{ PID: string; Act_Bkg_Units: number | null }> }>(
      page,
      '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=700&limit=200',
    );
    const pid = rows.find((r) => r.Act_Bkg_Units === null)!.PID;
    await page.getByLabel('Product ID', { exact: true }).fill(pid);
    await page.getByLabel('Product ID', { exact: true }).press('Enter');
    await expect.poll(async () => (await gridCell(page, 0, 'PID')).textContent()).toBe(pid);
    await waitForGridIdle(page);
    const { rows: records } = await pageApi<{ rows: Array<{ Act_Bkg_Units: number | null }> }>(
      page,
      `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=100&search=${pid}&period=horizon`,
    );
    const row = records.findIndex((r) => r.Act_Bkg_Units === null);

    await (await gridCell(page, row, 'PID')).click();
    const panel = page.getByTestId('selection-panel');
    await expect.poll(() => panel.textContent()).toContain(pid);
    expect(await panel.textContent()).not.toContain('777 units');

    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, row, 'SOP_Pln_Ovrd_Units', '777');
    await page.getByRole('button', { name: 'Save Changes (1)' }).click();
    await page.getByRole('button', { name: 'Save Changes (0)' }).waitFor();
    // No new click on the row: the panel follows the saved record.
    await expect.poll(() => panel.textContent()).toContain('777 units');
    await page.getByRole('button', { name: 'Exit Edit' }).click();
  });
});
