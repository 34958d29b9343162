import { fiscalQuarterKey, type DemandRecord, type WorksheetFilters } from '@ps/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

/** A call to the API with the page's own sign-in token, as the app makes it. */
async function api<T>(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${localStorage.getItem('id_token')}`,
          'content-type': 'application/json',
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      return ((await response.json()) as { data: T }).data;
    },
    { path, init },
  );
}

/** The worksheet's plan comparison row as its quarter cells' texts (label left out). */
const worksheetRow = async (page: Page, label: string) =>
  (
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
      .first()
      .locator('th, td')
      .allInnerTexts()
  ).slice(1);

/**
 * The quarters of the worksheet's plan comparison grid from the current one on, as the index of
 * the first such column in a row's cells: a publish moves P1 from the current quarter's first
 * week on, earlier weeks keep the plan published while they were ahead (docs/adr/0006).
 */
const currentQuarterColumn = async (page: Page): Promise<number> => {
  const headers = await page
    .getByRole('table')
    .filter({ has: page.getByRole('rowheader', { name: 'Final Demand Plan', exact: true }) })
    .first()
    .getByRole('columnheader')
    .allInnerTexts();
  const current = fiscalQuarterKey(new Date());
  return headers.slice(1).findIndex((quarter) => quarter.trim() >= current);
};

/** The worksheet of the first company, business unit and family (its default), in $K. */
async function openWorksheet(page: Page): Promise<void> {
  await page.goto('/control-tower');
  await page.getByRole('heading', { name: 'CTC Change (Q vs Q+)' }).waitFor();
  await page.getByRole('button', { name: '$K' }).click();
  await expect.poll(async () => (await worksheetRow(page, 'Final Demand Plan')).join(' ')).toMatch(/K/);
}

async function publishFromPlanningPage(page: Page): Promise<void> {
  await page.goto('/demand-planning');
  await page.getByRole('button', { name: 'Publish Cycle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish plan cycle' });
  await dialog.getByRole('table', { name: 'Totals to publish by quarter' }).waitFor();
  await dialog.getByRole('button', { name: 'Publish cycle' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("Cycle published")');
  await dialog.waitFor({ state: 'detached' });
}

describe('publishing a plan cycle from the demand planning page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows the totals to publish, publishes on confirmation and updates the Current Publish Value', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    const current = page.getByTestId('metric-Current Publish Value');
    await page.waitForFunction(() =>
      /\d/.test(document.querySelector('[data-testid="metric-Current Publish Value"]')?.textContent ?? ''),
    );
    const before = await current.innerText();
    const beforeText = await current.textContent();

    await page.getByRole('button', { name: 'Publish Cycle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish plan cycle' });
    const table = dialog.getByRole('table', { name: 'Totals to publish by quarter' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    // Header, at least one quarter, and the total; money with a currency symbol.
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows[1]).toMatch(/^\d{4}-Q[1-4]\s+[\d,]+\s+\$[\d,]+\s+\$[\d,]+$/);
    expect(rows.at(-1)).toMatch(/^Total\s+[\d,]+\s+\$[\d,]+\s+\$[\d,]+$/);
    await screenshot(page, 'plan-cycle-confirmation');

    await dialog.getByRole('button', { name: 'Publish cycle' }).click();
    await page.waitForSelector('[data-testid="toast"]:has-text("Cycle published")');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction((old) => {
      const text = document.querySelector('[data-testid="metric-Current Publish Value"]')?.textContent ?? '';
      return /\d/.test(text) && text !== old;
    }, beforeText);
    expect(await current.innerText()).not.toBe(before);
    await screenshot(page, 'plan-cycle-published');
    await context.close();
  });

  it("moves the worksheet's P1 Final Demand Plan to the Final plan a publish froze", async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.setViewportSize({ width: 1440, height: 1600 });
    await signIn(page, 'admin');
    // A record of the worksheet's default family, from today on, gets a new SOP override, so its
    // Final plan differs from P1 whatever earlier publishes left.
    const filters = await api<WorksheetFilters>(page, '/api/control-tower/filters');
    const company = filters.companies[0]!.id;
    const family = filters.productFamilies.find((f) => f.companyId === company)!;
    const query = new URLSearchParams({
      clientContext: company,
      bu: family.businessUnitId,
      pf: family.id,
      from: new Date().toISOString().slice(0, 10),
      limit: '1',
    });
    const [record] = (
      await api<{ items: DemandRecord[] }>(page, `/api/demand-planning/real-data?${query.toString()}`)
    ).items;
    const save = (units: number | null) =>
      api(page, '/api/demand-planning/real-data/batch', {
        method: 'POST',
        body: {
          updates: [{ PID: record!.PID, Time_Series_sk: record!.Time_Series_sk, SOP_Pln_Ovrd_Units: units }],
        },
      });
    await save((record!.Final_Pln_Units ?? 0) + 5000);
    try {
      await openWorksheet(page);
      const from = await currentQuarterColumn(page);
      expect(from).toBeGreaterThanOrEqual(0);
      const final = (await worksheetRow(page, 'Final Demand Plan')).slice(from);
      expect((await worksheetRow(page, 'P1 Final Demand Plan')).slice(from)).not.toEqual(final);

      await publishFromPlanningPage(page);
      await openWorksheet(page);
      expect((await worksheetRow(page, 'P1 Final Demand Plan')).slice(from)).toEqual(final);
      expect(await worksheetRow(page, 'P1 Marketing Forecast')).toEqual(
        await worksheetRow(page, 'Marketing Forecast'),
      );
      await screenshot(page, 'plan-cycle-worksheet-p1-moved');
    } finally {
      await save(record!.SOP_Pln_Ovrd_Units ?? null);
    }
    await context.close();
  });
});
