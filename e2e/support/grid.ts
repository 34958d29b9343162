import type { Locator, Page } from 'playwright-core';

/**
 * Scrolls the planning grid sideways, as a planner does, until `selector` (inside the grid) is
 * drawn: the grid draws only the columns in view (column virtualisation). Each step
 * moves half a view and waits until the grid has drawn the columns there.
 */
async function scrollGridUntilDrawn(page: Page, selector: string): Promise<void> {
  await page.locator('[data-testid="demand-grid"]').evaluate(async (grid, selector) => {
    const scroller = grid.querySelector('.ag-body-horizontal-scroll-viewport');
    if (grid.querySelector(selector) || !scroller) return;
    const drawnColumns = () =>
      Array.from(grid.querySelectorAll('.ag-header-cell[col-id]'), (cell) =>
        cell.getAttribute('col-id'),
      ).join();
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    for (let left = 0; left <= scroller.scrollWidth; left += scroller.clientWidth / 2) {
      const [drawnBefore, leftBefore] = [drawnColumns(), scroller.scrollLeft];
      scroller.scrollLeft = left;
      if (scroller.scrollLeft === leftBefore) continue;
      for (let waited = 0; waited < 100 && drawnColumns() === drawnBefore; waited += 1) await frame();
      await frame();
      if (grid.querySelector(selector)) return;
    }
  }, selector);
}

/**
 * The cell of a planning-grid row (by row index on the page) and column (by API field name),
 * scrolled into the grid's view first. Ask again after the grid scrolls elsewhere.
 */
export async function gridCell(page: Page, rowIndex: number, field: string): Promise<Locator> {
  const selector = `.ag-row[row-index="${rowIndex}"] [col-id="${field}"]`;
  const grid = page.locator('[data-testid="demand-grid"]');
  await grid.locator(`.ag-row[row-index="${rowIndex}"]`).first().waitFor();
  await scrollGridUntilDrawn(page, selector);
  return grid.locator(selector).first();
}

/** A column's header in the planning grid, scrolled into the grid's view first (see `gridCell`). */
export async function gridHeader(page: Page, field: string): Promise<Locator> {
  const selector = `.ag-header-cell[col-id="${field}"]`;
  const grid = page.locator('[data-testid="demand-grid"]');
  await grid.locator('.ag-header-cell').first().waitFor();
  await scrollGridUntilDrawn(page, selector);
  return grid.locator(selector);
}

/**
 * Types `value` into a grid cell as a planner does: double-click opens its editor (inline, or the
 * comments popup), Enter commits (Shift+Enter is a new line in the comments editor; Tab would open
 * the next cell), and the editor is gone before the next step.
 */
export async function editCell(page: Page, rowIndex: number, field: string, value: string): Promise<void> {
  await (await gridCell(page, rowIndex, field)).dblclick();
  const editor = page.locator('.ag-cell-inline-editing input, .ag-popup-editor textarea').first();
  await editor.waitFor();
  await editor.fill(value);
  await editor.press('Enter');
  await page.locator('.ag-cell-inline-editing, .ag-popup-editor').waitFor({ state: 'detached' });
}

/** The text of a planning-grid cell, scrolled into view first (see `gridCell`). */
export async function gridCellText(page: Page, rowIndex: number, field: string): Promise<string | null> {
  return (await gridCell(page, rowIndex, field)).textContent();
}
