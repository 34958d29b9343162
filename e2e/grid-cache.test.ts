import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { editCell, gridCell, gridCellText } from './support/grid';
import {
  chooseOption,
  openPlanningPage,
  pageApi as api,
  showView,
  waitForGridIdle,
  type PlanningPage,
} from './support/planning-page';

const digits = (text: string | null): string => (text ?? '').replace(/\D/g, '');

/**
 * From now on the page's grid page requests are held unanswered (counted), until `release` lets
 * them through: what shows meanwhile cannot have come from reading a page again.
 */
async function holdGridPages(page: Page): Promise<{ held: () => number; release: () => Promise<void> }> {
  const routes: Route[] = [];
  const isGridPage = (url: URL) => url.pathname === '/api/demand-planning/grid';
  const hold = (route: Route) => void routes.push(route);
  await page.route(isGridPage, hold);
  return {
    held: () => routes.length,
    release: async () => {
      // A request the page gave up meanwhile (a query cancelled on a view change) is handled already.
      await Promise.all(routes.map((route) => route.continue().catch(() => undefined)));
      await page.unroute(isGridPage, hold);
    },
  };
}

describe('the grid answers a save from its answer and keeps its rows while the next load', () => {
  let opened: PlanningPage | undefined;
  let page: Page;

  beforeAll(async () => {
    opened = await openPlanningPage(inject('baseUrl'));
    page = opened.page;
  });
  afterAll(async () => {
    await opened?.context.close();
    await opened?.browser.close();
  });

  it('shows a saved edit and its final plan, in the grid and the row-detail panel, without reading the page again', async () => {
    await showView(page, 'None (Show Original Table)', 'None (No Time Grouping)');
    // A future record of a product away from those the other browser tests edit.
    const { rows } = await api<{ rows: Array<{ PID: string; Act_Bkg_Units: number | null }> }>(
      page,
      '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=300&limit=200',
    );
    const pid = rows.find((r) => r.Act_Bkg_Units === null)!.PID;
    await page.getByLabel('Product ID', { exact: true }).fill(pid);
    await page.getByLabel('Product ID', { exact: true }).press('Enter');
    await expect.poll(async () => (await gridCell(page, 0, 'PID')).textContent()).toBe(pid);
    await waitForGridIdle(page);
    const { rows: records } = await api<{
      rows: Array<{ Act_Bkg_Units: number | null; Final_Pln_Units: number | null }>;
    }>(
      page,
      `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=100&search=${pid}&period=horizon`,
    );
    const row = records.findIndex((r) => r.Act_Bkg_Units === null);
    expect(records[row]!.Final_Pln_Units).not.toBe(654);

    await (await gridCell(page, row, 'PID')).click();
    const panel = page.getByTestId('selection-panel');
    await expect.poll(() => panel.textContent()).toContain(pid);
    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, row, 'SOP_Pln_Ovrd_Units', '654');

    const grid = await holdGridPages(page);
    try {
      await page.getByRole('button', { name: 'Save Changes (1)' }).click();
      await page.getByText('Changes Saved', { exact: true }).first().waitFor();
      // The final plan is the S&OP units once they are set: the saved record's, from the answer.
      await expect.poll(async () => digits(await gridCellText(page, row, 'Final_Pln_Units'))).toBe('654');
      await expect.poll(() => panel.textContent()).toContain('654 units');
      expect(await page.getByRole('button', { name: 'Save Changes (0)' }).count()).toBe(1);
    } finally {
      await grid.release();
    }
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByLabel('Product ID', { exact: true }).fill('');
    await page.getByLabel('Product ID', { exact: true }).press('Enter');
    await waitForGridIdle(page);
  });

  it("shows a spread's new total and revenue, in the grid and the row-detail panel, without reading the page again", async () => {
    await showView(page, 'Product Family Level', 'None (No Time Grouping)');
    const family = await gridCellText(page, 1, 'PF');
    const finalBefore = Number(digits(await gridCellText(page, 1, 'Final_Pln_Units')));
    const revenueBefore = await gridCellText(page, 1, 'Final_Pln_Rev_Dlrs');
    await (await gridCell(page, 1, 'PF')).click();
    const panel = page.getByTestId('selection-panel');
    await expect.poll(() => panel.textContent()).toContain(revenueBefore);

    // More than the family plans now, so no locked record can hold more than the total.
    const total = finalBefore + 1000;
    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, 1, 'SOP_Pln_Ovrd_Units', String(total));
    await page.getByTestId('spread-confirm').waitFor();

    const grid = await holdGridPages(page);
    let revenueAfter: string | null = null;
    try {
      await page.getByRole('button', { name: 'Spread and Save' }).click();
      await expect
        .poll(async () => digits(await gridCellText(page, 1, 'Final_Pln_Units')))
        .toBe(String(total));
      expect(await gridCellText(page, 1, 'PF')).toBe(family);
      revenueAfter = await gridCellText(page, 1, 'Final_Pln_Rev_Dlrs');
      expect(revenueAfter).not.toBe(revenueBefore);
      // The panel follows the row as the save's answer left it, with no new click.
      await expect.poll(() => panel.textContent()).toContain(revenueAfter);
    } finally {
      await grid.release();
    }
    // The answer was the server's own figures: the page read again later shows the same.
    const { rows } = await api<{ rows: Array<{ PF?: string; Final_Pln_Units: number | null }> }>(
      page,
      '/api/demand-planning/grid?viewLevel=category&drillDown=none&period=horizon&limit=500',
    );
    expect(rows.find((r) => r.PF === family)?.Final_Pln_Units).toBe(total);
    await page.getByRole('button', { name: 'Exit Edit' }).click();
  });

  it("keeps the page's rows on screen, under the loading note, until the next page's rows arrive", async () => {
    await showView(page, 'Product ID Level', 'None (No Time Grouping)');
    await chooseOption(page, 'Page Size', '25');
    await waitForGridIdle(page);
    const firstPid = await gridCellText(page, 0, 'PID');

    const grid = await holdGridPages(page);
    try {
      // The last page: the one after this is read ahead, the last is not.
      await page.getByRole('button', { name: 'Last page' }).click();
      await page.getByText('Loading data...').waitFor();
      expect(grid.held()).toBeGreaterThan(0);
      // The pager says where the planner is going; the first page's rows stay until it arrives.
      expect(await page.getByTestId('pager-summary').textContent()).toMatch(/^51 to /);
      expect(await gridCellText(page, 0, 'PID')).toBe(firstPid);
    } finally {
      await grid.release();
    }
    await waitForGridIdle(page);
    await expect.poll(() => gridCellText(page, 0, 'PID')).not.toBe(firstPid);
    await chooseOption(page, 'Page Size', '100');
    await waitForGridIdle(page);
  });
});
