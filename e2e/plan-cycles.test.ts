import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

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
});
