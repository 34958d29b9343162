import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { pageApi, showView, waitForGridIdle } from './support/planning-page';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { editCell, gridCell as cell, gridCellText as cellText, gridHeader } from './support/grid';

/** The grid's quarter key of a record's week (yyyy-Qn of its Sunday). */
const quarterOf = (record: { Time_Series_sk: string }): string =>
  `${record.Time_Series_sk.slice(0, 4)}-Q${Math.ceil(Number(record.Time_Series_sk.slice(4, 6)) / 3)}`;

const numberOf = (text: string | null): number | null => {
  const cleaned = (text ?? '').replace(/[^\d.-]/g, '');
  return cleaned === '' ? null : Number(cleaned);
};

async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Product ID', { exact: true }).fill(text);
  await page.getByLabel('Product ID', { exact: true }).press('Enter');
  await waitForGridIdle(page);
}

describe("the planner's grid", () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await page.setViewportSize({ width: 1440, height: 1600 });
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await waitForGridIdle(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('sorts a column on the server: ascending, descending, then back to unsorted', async () => {
    await showView(page, 'None (Show Original Table)', 'None (No Time Grouping)');
    const header = await gridHeader(page, 'Final_Pln_Units');
    const firstRows = async () =>
      Promise.all([0, 1, 2].map(async (i) => numberOf(await cellText(page, i, 'Final_Pln_Units'))));
    const total = await pageApi<{ total: number }>(
      page,
      '/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=1',
    );

    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await waitForGridIdle(page);
    const ascending = await pageApi<{ rows: Array<{ Final_Pln_Units: number | null }> }>(
      page,
      '/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=3&sortBy=Final_Pln_Units&sortDir=asc&period=horizon',
    );
    await expect.poll(firstRows).toEqual(ascending.rows.map((r) => r.Final_Pln_Units));

    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await waitForGridIdle(page);
    const [a, b, c] = await firstRows();
    expect(a! >= b! && b! >= c!).toBe(true);
    await screenshot(page, 'planner-grid-sorted');

    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('none');
    expect(total.total).toBeGreaterThan(0);
  });

  it('refuses an invalid value visibly at the cell, with its reason', async () => {
    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, 0, 'Rev_Pln_Ovrd_Percent', 'abc');
    const refused = (await cell(page, 0, 'Rev_Pln_Ovrd_Percent')).getByTestId('invalid-cell');
    await expect.poll(() => refused.textContent()).toContain('must be a number');
    await editCell(page, 1, 'SOP_Pln_Ovrd_Percent', '150');
    await expect
      .poll(async () =>
        (await cell(page, 1, 'SOP_Pln_Ovrd_Percent')).getByTestId('invalid-cell').textContent(),
      )
      .toContain('must be at most 100');
    await editCell(page, 2, 'Rev_Pln_Ovrd_Units', '-5');
    await expect
      .poll(async () => (await cell(page, 2, 'Rev_Pln_Ovrd_Units')).getByTestId('invalid-cell').textContent())
      .toContain('0 or more');
    await screenshot(page, 'planner-grid-invalid');
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('button', { name: 'Edit Mode' }).waitFor();
  });

  it('spreads a family × quarter edit over its records, leaving a locked record alone, with history', async () => {
    // One product's records, so the edit touches little of the data the other browser tests read.
    // A product away from the top of the table, which the other browser tests edit meanwhile.
    const pid = (
      await pageApi<{ rows: Array<{ PID: string }> }>(
        page,
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=300&limit=1',
      )
    ).rows[0]!.PID;
    await search(page, pid);
    type Record = { PID: string; Time_Series_sk: string; Final_Pln_Units: number | null };
    // The weeks the page shows: the plan horizon.
    const before = (
      await pageApi<{ rows: Record[] }>(
        page,
        `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=500&search=${pid}&period=horizon`,
      )
    ).rows.filter((r) => r.PID === pid);
    // Lock the first record of the product's latest quarter.
    const quarter = quarterOf(before.at(-1)!);
    const locked = before.find((r) => quarterOf(r) === quarter)!;
    const lockedRow = before.indexOf(locked);
    await (await cell(page, lockedRow, 'actions')).getByTestId('lock-toggle').click();
    await expect
      .poll(async () =>
        (await cell(page, lockedRow, 'actions')).getByTestId('lock-toggle').getAttribute('aria-pressed'),
      )
      .toBe('true');

    await showView(page, 'Product Family Level', 'Quarterly');
    const groups = await pageApi<{ rows: Array<{ periodKey: string; Final_Pln_Units: number }> }>(
      page,
      `/api/demand-planning/grid?viewLevel=category&drillDown=quarterly&search=${pid}&limit=100&period=horizon`,
    );
    const target = groups.rows.findIndex((r) => r.periodKey === quarter);
    expect(target).toBeGreaterThanOrEqual(0);
    const typed = Math.round(groups.rows[target]!.Final_Pln_Units) + 250;

    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(page, target, 'SOP_Pln_Ovrd_Units', String(typed));
    const dialog = page.getByTestId('spread-confirm');
    await dialog.waitFor();
    expect(await dialog.getByTestId('spread-records').textContent()).toMatch(/1 locked/);
    expect(await dialog.getByTestId('spread-revenue').textContent()).toMatch(/\$/);
    await screenshot(page, 'planner-grid-spread-confirm');
    await page.getByRole('button', { name: 'Spread and Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => numberOf(await cellText(page, target, 'Final_Pln_Units'))).toBe(typed);
    await page.getByRole('button', { name: 'Exit Edit' }).click();

    // The records under the cell add up to the typed figure; the locked one did not move.
    const after = (
      await pageApi<{ rows: Record[] }>(
        page,
        `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=500&search=${pid}&period=horizon`,
      )
    ).rows.filter((r) => r.PID === pid);
    const under = after.filter((r) => quarterOf(r) === quarter);
    expect(under.reduce((s, r) => s + (r.Final_Pln_Units ?? 0), 0)).toBe(typed);
    const lockedAfter = after.find((r) => r.Time_Series_sk === locked.Time_Series_sk)!;
    expect(lockedAfter.Final_Pln_Units).toBe(locked.Final_Pln_Units);

    // Cell history of a record the spread changed, opened by right-click on its cell.
    await showView(page, 'None (Show Original Table)', 'None (No Time Grouping)');
    const changedIndex = after.findIndex(
      (r) => under.includes(r) && r.Time_Series_sk !== locked.Time_Series_sk,
    );
    await (await cell(page, changedIndex, 'SOP_Pln_Ovrd_Units')).click({ button: 'right' });
    const history = page.getByTestId('cell-history');
    await history.waitFor();
    await expect
      .poll(() => history.getByTestId('history-origin').first().textContent())
      .toBe('Aggregate edit (spread)');
    await screenshot(page, 'planner-grid-history');
    await page.keyboard.press('Escape');
  });

  it('keeps view, filters, sort and page in the URL; a shared link reopens the same view', async () => {
    await showView(page, 'Product Family Level', 'Quarterly');
    await search(page, '');
    await (await gridHeader(page, 'Final_Pln_Rev_Dlrs')).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sortBy')).toBe('Final_Pln_Rev_Dlrs');
    const link = page.url();
    expect(new URL(link).searchParams.get('view')).toBe('category');
    expect(new URL(link).searchParams.get('drill')).toBe('quarterly');

    const other = await context.newPage();
    await other.setViewportSize({ width: 1440, height: 1600 });
    await other.goto(link);
    await waitForGridIdle(other);
    await other.getByText('Product Family Level · Quarterly').waitFor();
    const header = await gridHeader(other, 'Final_Pln_Rev_Dlrs');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    expect(await cellText(other, 0, 'PF')).toBe(await cellText(page, 0, 'PF'));
    await other.close();
  });
});
