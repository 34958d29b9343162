import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { editCell, gridCell as cell, gridCellText as cellText } from './support/grid';

async function chooseOption(page: Page, trigger: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: trigger }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function waitForGridIdle(page: Page): Promise<void> {
  await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
  await page.getByText('Loading data...').waitFor({ state: 'detached' });
  await page.getByText('Loading Initial Data...').waitFor({ state: 'detached' });
}

async function showOriginalTable(page: Page): Promise<void> {
  await chooseOption(page, 'View Level', 'None (Show Original Table)');
  await chooseOption(page, 'Drill Down', 'None (No Time Grouping)');
  // The week column: only the original table has one (pinned, so always drawn).
  await page.locator('[data-testid="demand-grid"] .ag-header-cell[col-id="Date"]').waitFor();
  await waitForGridIdle(page);
}

/** The two cells the save test edits: row index and field. */
const EDITED: [number, string][] = [
  [0, 'Rev_Pln_Ovrd_Percent'],
  [1, 'Comments'],
];

/** Whether each cell carries the unsaved-change marker. */
async function changedCells(page: Page, cells: [number, string][]): Promise<boolean[]> {
  const marked: boolean[] = [];
  for (const [row, field] of cells)
    marked.push(
      ((await (await cell(page, row, field)).getAttribute('class')) ?? '').includes('dp-cell-changed'),
    );
  return marked;
}

async function searchPid(page: Page, pid: string): Promise<void> {
  await page.getByLabel('Product ID', { exact: true }).fill(pid);
  await page.getByLabel('Product ID', { exact: true }).press('Enter');
  await expect.poll(() => cellText(page, 0, 'PID')).toBe(pid);
  await waitForGridIdle(page);
}

/** Every demand record the signed-in user may see, read with the page's own token. */
async function apiRecords(page: Page): Promise<Array<{ PID: string }>> {
  return page.evaluate(async () => {
    const response = await fetch('/api/demand-planning/real-data?limit=5000', {
      headers: { authorization: `Bearer ${localStorage.getItem('id_token')}` },
    });
    return ((await response.json()) as { data: { items: Array<{ PID: string }> } }).data.items;
  });
}

async function toastText(page: Page, title: string): Promise<string> {
  // One handle, read at once: toasts live 5 s and a locator would look the toast up again.
  const toast = await page.waitForSelector(`[data-testid="toast"]:has-text("${title}")`);
  return toast.innerText();
}

describe('demand planning page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    // The app scrolls inside its layout, so a full-page screenshot is the viewport: make it tall
    // enough for the dashboard, the 700 px grid and the details panel.
    await page.setViewportSize({ width: 1440, height: 1800 });
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows the dashboard, the summary and the grid at the default Product Family level', async () => {
    await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();
    for (const title of ['Last Publish Value', 'Current Publish Value']) {
      await expect.poll(() => page.getByTestId(`metric-${title}`).textContent()).toMatch(/^-?\$[\d,]+$/);
    }
    for (const title of ['Quarter Change', 'Year over Year']) {
      await expect.poll(() => page.getByTestId(`metric-${title}`).textContent()).toMatch(/^[+-]?\d+\.\d%$/);
    }
    // Other browser tests on this shared server may have imported products: count from the API.
    const records = await apiRecords(page);
    const skus = new Set(records.map((r) => r.PID)).size;
    expect(skus).toBeGreaterThanOrEqual(60);
    await expect.poll(() => page.getByTestId('stat-Total SKUs').textContent()).toBe(String(skus));
    await expect
      .poll(() => page.getByTestId('stat-Net Impact').textContent())
      .toMatch(/^[+-]?\$[\d,]+\.\dK$/);
    await waitForGridIdle(page);
    await expect(page.getByRole('combobox', { name: 'View Level' }).textContent()).resolves.toContain(
      'Product Family Level',
    );
    await expect(cellText(page, 0, 'PF')).resolves.toMatch(/\S/);
    const box = await page.getByTestId('demand-grid').boundingBox();
    expect(box?.height).toBe(700);
    await screenshot(page, 'demand-planning-light');
  });

  it('filters by business unit, changes view level and drill-down, and pages on the server', async () => {
    await showOriginalTable(page);
    const unfiltered = await page.getByTestId('pager-summary').textContent();
    // The page opens on the plan horizon: the records from the current week on.
    const total = await page.evaluate(async () => {
      const response = await fetch(
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&limit=1',
        { headers: { authorization: `Bearer ${localStorage.getItem('id_token')}` } },
      );
      return ((await response.json()) as { data: { total: number } }).data.total;
    });
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan((await apiRecords(page)).length);
    expect(unfiltered).toBe(`1 to 100 of ${total.toLocaleString('en-US')}`);

    await page.getByTestId('filter-Business Unit').click();
    const firstUnit = page.getByRole('list', { name: 'Business Unit options' }).locator('label').first();
    const unit = ((await firstUnit.locator('span').first().textContent()) ?? '').trim();
    await firstUnit.click();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('filter-Business Unit').textContent()).toContain(unit);
    await expect.poll(() => page.getByTestId('pager-summary').textContent()).not.toBe(unfiltered);
    await waitForGridIdle(page);
    // AG Grid replaces the rows a moment after the new page arrives.
    const units = () => page.locator('[data-testid="demand-grid"] .ag-row [col-id="BU"]').allTextContents();
    await expect.poll(async () => [...new Set(await units())]).toEqual([unit]);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByText(/^Page 2 of/).count()).toBe(1);

    await chooseOption(page, 'View Level', 'Business Unit Level');
    await chooseOption(page, 'Drill Down', 'Quarterly');
    await page.locator('[data-testid="demand-grid"] .ag-header-cell[col-id="periodLabel"]').waitFor();
    await waitForGridIdle(page);
    await expect(page.getByText(/^Page 1 of/).count()).resolves.toBe(1);
    await expect(cellText(page, 0, 'BU')).resolves.toBe(unit);
    await expect(cellText(page, 0, 'periodLabel')).resolves.toMatch(/\d{4}/);
    await screenshot(page, 'demand-planning-aggregated');

    await page.getByTestId('filter-Business Unit').click();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect
      .poll(() => page.getByTestId('filter-Business Unit').textContent())
      .toContain('Select business units');
  });

  it('edits two cells in two records, marks them, saves, and finds them after a reload', async () => {
    await showOriginalTable(page);
    const pid = (await cellText(page, 0, 'PID'))!;
    await searchPid(page, pid);
    const weekA = await cellText(page, 0, 'Date');
    const weekB = await cellText(page, 1, 'Date');

    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, 0, 'Rev_Pln_Ovrd_Percent', '12.5');
    await editCell(page, 1, 'Comments', 'Customer confirmed a larger order');
    // The grid draws only the columns in view, so each edited cell is looked at in turn.
    await expect.poll(() => changedCells(page, EDITED)).toEqual([true, true]);
    await page.getByRole('button', { name: 'Save Changes (2)' }).waitFor();
    await screenshot(page, 'demand-planning-edit-mode');

    await page.getByRole('button', { name: 'Save Changes (2)' }).click();
    expect(await toastText(page, 'Changes Saved')).toContain('Successfully saved 2 changes to 2 records.');
    await expect.poll(() => changedCells(page, EDITED)).toEqual([false, false]);

    await page.reload();
    await waitForGridIdle(page);
    await searchPid(page, pid);
    expect(await cellText(page, 0, 'Date')).toBe(weekA);
    expect(await cellText(page, 1, 'Date')).toBe(weekB);
    expect(await cellText(page, 0, 'Rev_Pln_Ovrd_Percent')).toBe('12.50%');
    expect(await cellText(page, 1, 'Comments')).toBe('Customer confirmed a larger order');
    expect(await cellText(page, 0, 'last_updated_by')).toMatch(/\S/);
  });

  it('discards edits, and asks before leaving edit mode with unsaved changes', async () => {
    const before = await cellText(page, 2, 'SOP_Pln_Ovrd_Units');
    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, 2, 'SOP_Pln_Ovrd_Units', '4321');
    await expect.poll(() => cellText(page, 2, 'SOP_Pln_Ovrd_Units')).toBe('4,321');
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await toastText(page, 'Changes Discarded')).toContain('All unsaved changes have been reverted.');
    await expect.poll(() => cellText(page, 2, 'SOP_Pln_Ovrd_Units')).toBe(before);

    await editCell(page, 2, 'SOP_Pln_Ovrd_Percent', '7');
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('dialog', { name: 'Discard unsaved changes?' }).waitFor();
    await page.getByRole('button', { name: 'Stay in Edit Mode' }).click();
    await page.getByRole('button', { name: 'Save Changes (1)' }).waitFor();
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('button', { name: 'Discard and Exit' }).click();
    await page.getByRole('button', { name: 'Edit Mode' }).waitFor();
    await expect.poll(() => page.locator('.dp-cell-changed').count()).toBe(0);
  });

  it('refuses an override percent above 100', async () => {
    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, 3, 'Rev_Pln_Ovrd_Percent', '150');
    await expect.poll(() => page.locator('.dp-cell-changed').count()).toBe(0);
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('button', { name: 'Edit Mode' }).waitFor();
  });

  it('reports a record someone else changed since it was read, and does not overwrite it', async () => {
    const pid = (await cellText(page, 4, 'PID'))!;
    const [month, day, year] = ((await cellText(page, 4, 'Date')) ?? '').split('/');
    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, 4, 'Comments', 'My planning note');

    // Another session changes the same record through the API while this edit is pending.
    const status = await page.evaluate(
      async ({ pid, sk }) => {
        const response = await fetch(`/api/demand-planning/real-data/${encodeURIComponent(pid)}/${sk}`, {
          method: 'PUT',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${localStorage.getItem('id_token') ?? localStorage.getItem('access_token')}`,
          },
          body: JSON.stringify({ Comments: 'Changed by a colleague' }),
        });
        return response.status;
      },
      { pid, sk: `${year}${month}${day}` },
    );
    expect(status).toBe(200);

    await page.getByRole('button', { name: 'Save Changes (1)' }).click();
    expect(await toastText(page, 'Save Failed')).toMatch(/changed by .* since you read/);
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    await expect.poll(() => cellText(page, 4, 'Comments')).toBe('Changed by a colleague');
    expect(await page.locator('.dp-cell-changed').count()).toBe(0);
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('button', { name: 'Edit Mode' }).waitFor();
  });

  it('exports what the grid shows to demand-planning-real-data-{date}.csv', async () => {
    const total = Number(
      ((await page.getByTestId('pager-summary').textContent()) ?? '').split(' of ')[1]!.replace(/,/g, ''),
    );
    const downloadStarted = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadStarted;
    expect(download.suggestedFilename()).toMatch(/^demand-planning-real-data-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Product ID');
    expect(lines).toHaveLength(total + 1);
    expect(text).toContain('Customer confirmed a larger order');
    expect(await toastText(page, 'Export Complete')).toContain('Real data exported to CSV successfully.');
  });

  it('hides the dashboard in Focus View and looks right in the dark theme', async () => {
    await page.getByRole('button', { name: 'Focus View' }).click();
    await page.getByRole('button', { name: 'Show Dashboard' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Financial Dashboard' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show Dashboard' }).click();
    await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();

    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: 'dark' }));
    });
    await page.reload();
    await waitForGridIdle(page);
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      true,
    );
    await screenshot(page, 'demand-planning-dark');
  });
});
