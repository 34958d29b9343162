import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

describe('forecast run from the demand planning page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('lets an admin run the forecast, shows its progress and reports when it is done', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    const runButton = page.getByRole('button', { name: 'Run Forecast' });
    await runButton.click();
    // Asked first, with what the run will rewrite: every seeded product's future weeks.
    const confirm = page.getByTestId('forecast-confirm');
    await expect
      .poll(() => confirm.innerText())
      .toMatch(/rewrites the statistical forecasts of [\d,]+ future records across \d+ products/);
    await screenshot(page, 'forecast-run-confirm');
    await confirm.getByRole('button', { name: 'Run Forecast' }).click();
    // The button stays disabled while the server works; the progress line names the products.
    await page.getByRole('button', { name: 'Forecast Running...' }).waitFor();
    await page.getByTestId('forecast-progress').waitFor();
    await screenshot(page, 'forecast-run-progress');
    const toast = await page.waitForSelector('[data-testid="toast"]:has-text("Forecast Complete")', {
      timeout: 120_000,
    });
    // 60 seeded products, plus any another browser test imported into the shared server first.
    const done = /Updated forecasts for (\d+) products \(\d+ records\)\./.exec(await toast.innerText());
    expect(Number(done?.[1])).toBeGreaterThanOrEqual(60);
    await runButton.waitFor();
    expect(await runButton.isEnabled()).toBe(true);
    await context.close();
  });
});
