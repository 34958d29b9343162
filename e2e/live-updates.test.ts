import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { editCell, gridCell as cell, gridCellText as cellText } from './support/grid';
import { restoreDefaultSettings, saveSettings } from './support/settings';

const numberOf = (text: string | null): number | null => {
  const cleaned = (text ?? '').replace(/[^\d.-]/g, '');
  return cleaned === '' ? null : Number(cleaned);
};

async function waitForGridIdle(page: Page): Promise<void> {
  await (await cell(page, 0, 'SOP_Pln_Ovrd_Units')).waitFor();
  await page.getByText('Loading data...').waitFor({ state: 'detached' });
  await page.getByText('Loading Initial Data...').waitFor({ state: 'detached' });
}

/** Types a units override into the product's first week and saves it, as a planner does. */
async function saveUnits(page: Page, units: number): Promise<void> {
  await page.getByRole('button', { name: 'Edit Mode' }).click();
  await editCell(page, 0, 'SOP_Pln_Ovrd_Units', String(units));
  await page.getByRole('button', { name: /Save Changes/ }).click();
  await page.getByText('Changes Saved', { exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Exit Edit' }).click();
  await page.getByRole('button', { name: 'Edit Mode' }).waitFor();
}

/**
 * Two planners (two browser contexts) on the same product; one saves, the
 * other's grid shows the new figure within 2 s without a reload, and flags an unsaved edit of
 * that record first. With realTimeUpdates off, nothing arrives.
 */
describe('live updates between two planners', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let writer: Page;
  let reader: Page;
  let productUrl = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const [a, b] = [await newPage(browser, baseUrl), await newPage(browser, baseUrl)];
    contexts = [a.context, b.context];
    [writer, reader] = [a.page, b.page];
    for (const page of [writer, reader]) await page.setViewportSize({ width: 1440, height: 1600 });
    await Promise.all([signIn(writer, 'admin'), signIn(reader, 'admin')]);
    // A product far down the table, away from what the other browser tests edit.
    const pid = await writer.evaluate(async () => {
      const response = await fetch(
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=600&limit=1',
        {
          headers: { authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}` },
        },
      );
      return ((await response.json()) as { data: { rows: Array<{ PID: string }> } }).data.rows[0]!.PID;
    });
    productUrl = `/demand-planning?view=none&drill=none&q=${encodeURIComponent(pid)}`;
    for (const page of [writer, reader]) {
      await page.goto(productUrl);
      await waitForGridIdle(page);
    }
  });
  afterAll(async () => {
    if (reader) await restoreDefaultSettings(reader).catch(() => undefined);
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  it("shows the other planner's save within 2 s and flags an unsaved edit of that record", async () => {
    const before = numberOf(await cellText(reader, 0, 'SOP_Pln_Ovrd_Units'));
    const units = before === 4321 ? 4322 : 4321;
    // The reader has an unsaved edit on the same record.
    await reader.getByRole('button', { name: 'Edit Mode' }).click();
    await editCell(reader, 0, 'Rev_Pln_Ovrd_Percent', '3');
    // Scrolled to before the save, so the 2 s below time the update, not the test's scrolling.
    const readerUnits = await cell(reader, 0, 'SOP_Pln_Ovrd_Units');

    await saveUnits(writer, units);
    const savedAt = Date.now();
    await expect
      .poll(async () => numberOf(await readerUnits.textContent()), {
        timeout: 2_000,
        interval: 50,
      })
      .toBe(units);
    expect(Date.now() - savedAt).toBeLessThan(2_000);
    // The pending edit is kept and flagged, before any save.
    await reader.getByTestId('live-conflict-banner').waitFor();
    expect(await reader.getByTestId('live-conflict-banner').textContent()).toContain(
      'Another planner changed 1 record you are editing',
    );
    expect(await (await cell(reader, 0, 'Rev_Pln_Ovrd_Percent')).getAttribute('class')).toContain(
      'dp-cell-conflict',
    );
    await screenshot(reader, 'live-updates-conflict');

    await reader.getByRole('button', { name: 'Discard' }).click();
    await reader.getByRole('button', { name: 'Exit Edit' }).click();
    await reader.getByRole('button', { name: 'Edit Mode' }).waitFor();
  });

  it('sends nothing to a planner who turned realTimeUpdates off', async () => {
    await saveSettings(reader, { ...DEFAULT_USER_SETTINGS, realTimeUpdates: false });
    await reader.goto(productUrl);
    await waitForGridIdle(reader);
    const before = numberOf(await cellText(reader, 0, 'SOP_Pln_Ovrd_Units'));
    const units = before === 1234 ? 1235 : 1234;
    await saveUnits(writer, units);
    // Three seconds, well past the 2 s a live update takes; polling runs every 30 s at the least.
    await reader.waitForTimeout(3_000);
    expect(numberOf(await cellText(reader, 0, 'SOP_Pln_Ovrd_Units'))).toBe(before);
    // Refresh still shows it: the save did happen.
    await reader.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(async () => numberOf(await cellText(reader, 0, 'SOP_Pln_Ovrd_Units'))).toBe(units);
    await restoreDefaultSettings(reader);
  });
});
