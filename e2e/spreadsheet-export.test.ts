import { DATA_SHEET_HEADER_ROW } from '@ps/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { downloadFromExportMenu } from './support/spreadsheets';

async function toastText(page: Page, title: string): Promise<string> {
  const toast = await page.waitForSelector(`[data-testid="toast"]:has-text("${title}")`);
  return toast.innerText();
}

const DAY = /\d{4}-\d{2}-\d{2}/.source;

describe('spreadsheet export', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
    await page.getByText('Loading data...').waitFor({ state: 'detached' });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('offers Quick Export, Detailed Export and Template Download in the import/export group', async () => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    for (const item of ['Quick Export', 'Detailed Export', 'Template Download']) {
      await page.getByRole('menuitem', { name: item }).waitFor();
    }
    await screenshot(page, 'spreadsheet-export-menu');
    await page.keyboard.press('Escape');
  });

  it('Quick Export writes the current view to Excel, one row per grid row', async () => {
    const total = Number(
      ((await page.getByTestId('pager-summary').textContent()) ?? '').split(' of ')[1]!.replace(/,/g, ''),
    );
    const { name, book } = await downloadFromExportMenu(page, 'Quick Export');
    expect(name).toMatch(new RegExp(`^demand-planning-category-none-${DAY}\\.xlsx$`));
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Product Family');
    expect(sheet.actualRowCount).toBe(total + 1);
    expect(await toastText(page, 'Export Successful')).toContain(
      `Exported ${total.toLocaleString('en-US')} records to Excel`,
    );
  });

  it('Detailed Export writes the data, summary and template sheets and says how many SKUs', async () => {
    const { name, book } = await downloadFromExportMenu(page, 'Detailed Export');
    expect(name).toMatch(new RegExp(`^demand-planning-detailed-category-none-${DAY}\\.xlsx$`));
    expect(book.worksheets.map((s) => s.name)).toEqual(['Demand Plan Data', 'Summary', 'Import Template']);
    const data = book.getWorksheet('Demand Plan Data')!;
    expect(data.getRow(DATA_SHEET_HEADER_ROW).getCell(1).value).toBe('sku');
    const skus = data.actualRowCount - DATA_SHEET_HEADER_ROW + 1;
    expect(skus).toBeGreaterThan(0);
    expect(await toastText(page, 'Export Successful')).toContain(
      `Exported detailed report with ${skus} records`,
    );
  });

  it('Template Download writes the import template with its instructions', async () => {
    const { name, book } = await downloadFromExportMenu(page, 'Template Download');
    expect(name).toBe('demand-planning-import-template-category-none.xlsx');
    expect(book.worksheets.map((s) => s.name)).toEqual(['Import Template', 'Instructions']);
    expect(book.worksheets[0]!.getRow(1).getCell(1).value).toBe('sku');
    expect(await toastText(page, 'Template Exported')).toContain('Import template downloaded successfully');
  });

  it('looks right in the dark theme', async () => {
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: 'dark' }));
    });
    await page.reload();
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Detailed Export' }).waitFor();
    await screenshot(page, 'spreadsheet-export-menu-dark');
    await page.keyboard.press('Escape');
  });
});
