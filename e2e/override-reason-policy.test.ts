import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { editCell } from './support/grid';

type GridRecord = { PID: string; SOP_Pln_Ovrd_Units: number | null; Reason_Code: string | null };

/** Calls the API with the signed-in user's token, as the page does. */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return ((await response.json()) as { data: unknown }).data;
    },
    { method, path, body },
  ) as Promise<T>;
}

async function chooseOption(page: Page, trigger: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: trigger }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe("the admin's policy that an override carries a reason code", () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ page } = await newPage(browser, baseUrl));
    await page.setViewportSize({ width: 1440, height: 1200 });
    await signIn(page, 'admin');
  });
  afterAll(async () => {
    // Every browser test shares one server: the policy goes back off whatever happened above.
    await api(page, 'PUT', '/api/planning-policy', { requireOverrideReason: false }).catch(() => undefined);
    await browser?.close();
  });

  it('is set in Settings, and a spread then asks for the reason code it writes on every record', async () => {
    await page.getByRole('button', { name: 'Settings' }).first().click();
    await page.getByLabel('Overrides need a reason code (every planner)').click();
    const saved = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/planning-policy' && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save Settings' }).click();
    expect((await saved).status()).toBe(200);

    // A product away from the top of the table, which the other browser tests edit, with weeks in
    // the plan horizon the page opens on (products loaded by other tests may hold history only).
    const pid = (
      await api<{ rows: Array<{ PID: string }> }>(
        page,
        'GET',
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=380&limit=1',
      )
    ).rows[0]!.PID;
    await page.goto('/demand-planning');
    await chooseOption(page, 'View Level', 'Product ID Level');
    await chooseOption(page, 'Drill Down', 'None (No Time Grouping)');
    await page.getByLabel('Product ID', { exact: true }).fill(pid);
    await page.getByLabel('Product ID', { exact: true }).press('Enter');
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
    await page.getByText('Loading data...').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Edit Mode' }).click();
    await page.getByText('An admin requires a reason code with every override').waitFor();
    await editCell(page, 0, 'SOP_Pln_Ovrd_Units', '4321');
    const dialog = page.getByTestId('spread-confirm');
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Spread and Save' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog
      .getByText('An admin requires a reason code with every override: choose one to spread.')
      .waitFor();
    await screenshot(page, 'override-reason-policy-spread');
    await chooseOption(page, 'Reason code', 'Supply Chain');
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Exit Edit' }).click();

    const records = (
      await api<{ rows: GridRecord[] }>(
        page,
        'GET',
        // The product's row summed the weeks the page shows (the plan horizon), so the spread wrote those.
        `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=500&search=${pid}&period=horizon`,
      )
    ).rows.filter((r) => r.PID === pid && r.SOP_Pln_Ovrd_Units !== null);
    expect(records.reduce((sum, r) => sum + r.SOP_Pln_Ovrd_Units!, 0)).toBe(4321);
    expect(records.every((r) => r.Reason_Code === 'Supply Chain')).toBe(true);

    // The admin's switch shows the policy in force when Settings opens again.
    await page.getByRole('button', { name: 'Settings' }).first().click();
    expect(
      await page.getByLabel('Overrides need a reason code (every planner)').getAttribute('aria-checked'),
    ).toBe('true');
    await page.keyboard.press('Escape');
  });
});
