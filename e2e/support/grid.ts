import type { Page } from 'playwright-core';

/** The cell of a planning-grid row (by row index on the page) and column (by API field name). */
export function gridCell(page: Page, rowIndex: number, field: string) {
  return page
    .locator(`[data-testid="demand-grid"] .ag-row[row-index="${rowIndex}"] [col-id="${field}"]`)
    .first();
}

/**
 * Types `value` into a grid cell as a planner does: double-click opens its editor (inline, or the
 * comments popup), Enter commits (Shift+Enter is a new line in the comments editor; Tab would open
 * the next cell), and the editor is gone before the next step.
 */
export async function editCell(page: Page, rowIndex: number, field: string, value: string): Promise<void> {
  await gridCell(page, rowIndex, field).dblclick();
  const editor = page.locator('.ag-cell-inline-editing input, .ag-popup-editor textarea').first();
  await editor.waitFor();
  await editor.fill(value);
  await editor.press('Enter');
  await page.locator('.ag-cell-inline-editing, .ag-popup-editor').waitFor({ state: 'detached' });
}
