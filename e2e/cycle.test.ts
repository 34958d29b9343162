import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

describe('the planning cycle screen', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('lets an admin set the schedule, run the cycle now and follow its step log', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    // Reached from the settings dialog, as an admin finds it.
    await page.getByRole('button', { name: 'Settings' }).first().click();
    await page.getByRole('link', { name: 'Planning cycle (admins)' }).click();
    await page.waitForURL((url) => url.pathname === '/cycle');
    await page.getByRole('heading', { name: 'Planning cycle' }).waitFor();
    expect(await page.getByTestId('cycle-next-run').innerText()).toContain('The schedule is off');

    await page.getByLabel('Run on a schedule').click();
    await page.getByLabel('Frequency').selectOption('weekly');
    await page.getByLabel('Weekday').selectOption({ label: 'Monday' });
    await page.getByLabel('Time', { exact: true }).fill('06:00');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.waitForSelector('[data-testid="toast"]:has-text("Schedule saved")');
    const nextRun = await page.getByTestId('cycle-next-run').innerText();
    expect(nextRun).toContain('Next run:');
    // Said on the company's clock: Monday 06:00 in Berlin, whatever the browser's zone.
    expect(nextRun).toMatch(/\d{2}\/\d{2}\/\d{4} 06:00 \(Europe\/Berlin\)/);
    expect(nextRun).toContain('Last set by Demo Admin');

    await page.getByRole('button', { name: 'Run now' }).click();
    const log = page.getByRole('table', { name: /Step log of run \d+/ }).first();
    await log.getByRole('cell', { name: 'Actuals feed' }).waitFor();
    await screenshot(page, 'cycle-running');
    await page
      .getByRole('heading', { name: /Run \d+ · succeeded/ })
      .first()
      .waitFor({ timeout: 120_000 });
    const rows = await log.locator('tbody tr').allInnerTexts();
    expect(rows.map((row) => row.split('\t').slice(0, 2))).toEqual([
      ['Actuals feed', 'Skipped'],
      ['Roll the horizon', 'Succeeded'],
      ['Forecast run', 'Succeeded'],
      ['Forecast snapshot', 'Succeeded'],
      ['Exception queue', 'Succeeded'],
      ["Planners' digest", 'Succeeded'],
    ]);
    expect(rows[2]).toMatch(/products \d+/);
    await screenshot(page, 'cycle-done');

    // The schedule is the server's: it is there after a reload.
    await page.reload();
    await page.getByTestId('cycle-next-run').waitFor();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
    expect(await page.getByLabel('Run on a schedule').getAttribute('aria-checked')).toBe('true');
    await context.close();
  });
});
