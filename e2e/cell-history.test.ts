import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { gridCell } from './support/grid';

type RecordRow = { PID: string; PF: string; BU: string; Time_Series_sk: string; Date: string };

/** Calls the API with the signed-in user's token, as the page does. */
async function api<T>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, data: ((await response.json()) as { data: unknown }).data };
    },
    { method, path, body },
  ) as Promise<{ status: number; data: T }>;
}

async function productRecords(page: Page, pid: string): Promise<RecordRow[]> {
  const { data } = await api<{ rows: RecordRow[] }>(
    page,
    'GET',
    `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=500&search=${pid}&period=horizon`,
  );
  return data.rows.filter((r) => r.PID === pid);
}

/** Shows one product's records in the original table and opens one cell's history by right-click. */
async function openHistory(page: Page, pid: string, rowIndex: number, field: string) {
  const box = page.getByLabel('Product ID', { exact: true });
  await box.fill(pid);
  await box.press('Enter');
  await expect
    .poll(
      async () => page.locator('[data-testid="demand-grid"] .ag-row [col-id="PID"]').first().innerText(),
      {
        timeout: 60_000,
      },
    )
    .toBe(pid);
  await (await gridCell(page, rowIndex, field)).click({ button: 'right' });
  const history = page.getByTestId('cell-history');
  await history.waitFor();
  return history;
}

describe('cell history after an import and after a forecast run', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ page } = await newPage(browser, baseUrl));
    await page.setViewportSize({ width: 1440, height: 1400 });
    await signIn(page, 'admin');
    await page.goto('/demand-planning?view=none&drill=none');
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
  });
  afterAll(async () => browser?.close());

  it('shows an imported override as coming from the import', async () => {
    // A product far from the rows the other browser tests edit.
    const pid = (
      await api<{ rows: RecordRow[] }>(
        page,
        'GET',
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=700&limit=1',
      )
    ).data.rows[0]!.PID;
    const before = await productRecords(page, pid);
    const product = before[0]!;
    // Import quarter 1 is the 13 weeks from the current week; its override lands on their S&OP units.
    const imported = await api<unknown>(page, 'POST', '/api/demand-planning-items', {
      sku: pid,
      category: product.PF,
      businessUnit: product.BU,
      overrideQ1: 1300,
    });
    expect(imported.status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const row = before.findIndex((r, i) => r.Date <= today && (before[i + 1]?.Date ?? '9999') > today);
    expect(row).toBeGreaterThanOrEqual(0);

    const history = await openHistory(page, pid, row, 'SOP_Pln_Ovrd_Units');
    await expect
      .poll(() => history.getByTestId('history-origin').first().textContent(), { timeout: 30_000 })
      .toBe('Import');
    expect(await history.getByTestId('history-entry').first().innerText()).toContain(
      'S&OP Plan Override Units',
    );
    await screenshot(page, 'cell-history-import');
    await page.keyboard.press('Escape');
  });

  it('shows a forecast run’s rewrite of the statistical forecast as coming from the run', async () => {
    // Another browser test may be running the forecast: wait for it, then start our own.
    let started = await api<{ id: number }>(page, 'POST', '/api/forecast/runs');
    for (let i = 0; started.status === 409 && i < 120; i++) {
      await page.waitForTimeout(1000);
      started = await api<{ id: number }>(page, 'POST', '/api/forecast/runs');
    }
    expect(started.status).toBe(202);
    await expect
      .poll(
        async () =>
          (await api<{ status: string }>(page, 'GET', `/api/forecast/runs/${started.data.id}`)).data.status,
        { timeout: 180_000, interval: 1000 },
      )
      .toBe('succeeded');

    const pid = (
      await api<{ rows: RecordRow[] }>(
        page,
        'GET',
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=540&limit=1',
      )
    ).data.rows[0]!.PID;
    const records = await productRecords(page, pid);
    const today = new Date().toISOString().slice(0, 10);
    const row = records.findIndex((r) => r.Date > today);
    const history = await openHistory(page, pid, row, 'Ensemble_Fcst_Units');
    await expect
      .poll(() => history.getByTestId('history-origin').first().textContent(), { timeout: 30_000 })
      .toBe('Forecast run');
    const entry = await history.getByTestId('history-entry').first().innerText();
    expect(entry).toContain('Forecast engine');
    expect(entry).toContain(`Forecast run ${started.data.id}`);
    await screenshot(page, 'cell-history-forecast');
    await page.keyboard.press('Escape');
  });
});
