import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';

/**
 * Chooses an item of the demand planning page's Export menu and reads the downloaded workbook, as
 * a planner opening it in Excel would; `name` is the file name the server gave it.
 */
export async function downloadFromExportMenu(
  page: Page,
  item: 'Quick Export' | 'Detailed Export' | 'Template Download',
): Promise<{ name: string; book: ExcelJS.Workbook }> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const downloadStarted = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: item }).click();
  const download = await downloadStarted;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(await download.path()) as unknown as ExcelJS.Buffer);
  return { name: download.suggestedFilename(), book };
}
