import { readFileSync } from 'node:fs';
import { CONSENSUS_PLAN_COLUMNS } from '@ps/domain';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

/** Presses a download button of the Data page's plan card and answers the file's name and bytes. */
async function download(page: Page, button: 'Download CSV' | 'Download Excel') {
  const started = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const file = await started;
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

describe('the plan sent out, from the Data page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await signIn(page, 'admin');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('downloads the consensus plan as CSV and Excel, and the changes since the latest version (none)', async () => {
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByRole('heading', { name: 'Consensus Plan', exact: true }).waitFor();
    const latest = page.getByTestId('consensus-plan-latest');
    await expect.poll(() => latest.innerText()).toMatch(/^Latest: .+ \(version \d+\), published /);
    const version = /\(version (\d+)\)/.exec(await latest.innerText())![1]!;
    await screenshot(page, 'data-consensus-plan');

    const csv = await download(page, 'Download CSV');
    expect(csv.name).toMatch(/^consensus-plan-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.bytes.toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(CONSENSUS_PLAN_COLUMNS.join(','));
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.length).toBeGreaterThan(0);
    // One row per product and week, each naming its client's latest version; the newest is the one shown.
    expect(new Set(rows.map((row) => `${row[1]}|${row[2]}`)).size).toBe(rows.length);
    expect(rows.some((row) => row[6] === version)).toBe(true);
    expect(rows.every((row) => row[9] === 'upsert' && /^\d{4}-\d{2}-\d{2}$/.test(row[2]!))).toBe(true);

    const xlsx = await download(page, 'Download Excel');
    expect(xlsx.name).toMatch(/^consensus-plan-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('Consensus Plan')!;
    expect(sheet.rowCount).toBe(rows.length + 1);
    expect(sheet.getRow(1).getCell(2).value).toBe('PID');

    // Nothing has changed since the latest version.
    await page.getByLabel('Changes since', { exact: true }).click();
    await page.getByRole('option', { name: new RegExp(`^Version ${version}: `) }).click();
    const changes = await download(page, 'Download CSV');
    expect(changes.name).toMatch(new RegExp(`^consensus-plan-changes-since-v${version}-`));
    expect(changes.bytes.toString('utf8').trimEnd().split('\r\n')).toEqual([
      CONSENSUS_PLAN_COLUMNS.join(','),
    ]);
  }, 120_000);
});
