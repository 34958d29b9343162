import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importQuarterWeeks } from '@ps/domain';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

type RecordRow = {
  PID: string;
  BU: string;
  PF: string;
  Region: string;
  Site: string;
  Time_Series_sk: string;
  Final_Pln_Units: number | null;
  Ensemble_Fcst_Units: number | null;
};

const FILES = 'test-results/import-files';

/** Every record the signed-in admin sees, through the API the grid uses. */
async function allRecords(page: Page): Promise<RecordRow[]> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('id_token') ?? '';
    const items: RecordRow[] = [];
    let next: string | null = null;
    do {
      const query: string = next ? `&nextToken=${encodeURIComponent(next)}` : '';
      const response = await fetch(`/api/demand-planning/real-data?limit=1000${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { data: { items: RecordRow[]; nextToken: string | null } };
      items.push(...body.data.items);
      next = body.data.nextToken;
    } while (next);
    return items;
  });
}

const Q1 = new Set(importQuarterWeeks(new Date())[0]!.map((week) => week.replaceAll('-', '')));
const q1Total = (records: RecordRow[], pid: string): number =>
  records
    .filter((r) => r.PID === pid && Q1.has(r.Time_Series_sk))
    .reduce((s, r) => s + (r.Final_Pln_Units ?? 0), 0);

/** A workbook shaped like spec §3's export row / template: filter line, header, one row per SKU. */
async function workbookOf(rows: Array<Record<string, string | number | null>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(['Filters: none']);
  const header = ['SKU', 'Category', 'Business Unit', 'Region', 'Site', 'Planner Name'];
  for (const kind of ['Forecast', 'Override']) for (const q of [1, 2, 3, 4]) header.push(`${kind} Q${q}`);
  header.push('Notes');
  sheet.addRow(header);
  const keys = ['sku', 'category', 'businessUnit', 'region', 'site', 'plannerName'];
  for (const kind of ['forecast', 'override']) for (const q of [1, 2, 3, 4]) keys.push(`${kind}Q${q}`);
  keys.push('notes');
  for (const row of rows) sheet.addRow(keys.map((key) => row[key] ?? null));
  sheet.views = [{ state: 'frozen', ySplit: 2 }];
  workbook.addWorksheet('Summary').addRow(['Records', rows.length]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function saved(name: string, content: Buffer | string): string {
  mkdirSync(FILES, { recursive: true });
  const path = join(FILES, name);
  writeFileSync(path, content);
  return path;
}

const statNumber = async (page: Page, stat: string): Promise<number> =>
  Number((await page.getByTestId(`stat-${stat}`).innerText()).replace(/\D/g, ''));

/** Opens the Import dialog and chooses a file; waits for the preview unless the file is refused. */
async function chooseInDialog(page: Page, path: string, expectPreview = true): Promise<void> {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Demand Planning Data' });
  await dialog.waitFor();
  await page.getByTestId('import-file-input').setInputFiles(path);
  if (expectPreview) await dialog.getByTestId('import-summary').waitFor();
}

describe('importing spreadsheets from the demand planning page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('imports a filled template, round-trips an export with two edited overrides, and refuses a broken file', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await page.getByTestId('stat-Total SKUs').waitFor();
    await page.waitForFunction(() =>
      /\d/.test(document.querySelector('[data-testid="stat-Total SKUs"]')?.textContent ?? ''),
    );
    const skusBefore = await statNumber(page, 'Total SKUs');

    // 1. The template filled with two new SKUs.
    const template = await workbookOf([
      { sku: 'E2E-IMP-1', category: 'Ball Valves', businessUnit: 'Valves', region: 'EMEA', forecastQ1: 130 },
      {
        sku: 'E2E-IMP-2',
        category: 'Ball Valves',
        businessUnit: 'Valves',
        plannerName: 'Ann',
        forecastQ1: 27,
      },
    ]);
    await chooseInDialog(page, saved('template.xlsx', template));
    const dialog = page.getByRole('dialog', { name: 'Import Demand Planning Data' });
    expect(await dialog.getByTestId('import-summary').innerText()).toBe(
      '2 of 2 rows valid · 0 errors · 0 warnings · 0 existing SKUs',
    );
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    await screenshot(page, 'import-dialog-preview');
    await dialog.getByRole('button', { name: 'Import 2 Rows' }).click();
    await page.waitForSelector('[data-testid="toast"]:has-text("Successfully imported 2 items")');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (before) =>
        Number(
          (document.querySelector('[data-testid="stat-Total SKUs"]')?.textContent ?? '').replace(/\D/g, ''),
        ) ===
        before + 2,
      skusBefore,
    );
    const afterTemplate = await allRecords(page);
    expect(q1Total(afterTemplate, 'E2E-IMP-1')).toBe(130);
    expect(
      afterTemplate
        .filter((r) => r.PID === 'E2E-IMP-2' && Q1.has(r.Time_Series_sk))
        .sort((a, b) => a.Time_Series_sk.localeCompare(b.Time_Series_sk))
        .map((r) => r.Ensemble_Fcst_Units),
    ).toEqual([3, ...Array<number>(12).fill(2)]);

    // 2. "Detailed Export" of five SKUs with their Q1 Final as the override; two cells edited.
    const pids = [...new Set(afterTemplate.filter((r) => r.PID.startsWith('PRD-')).map((r) => r.PID))].slice(
      -5,
    );
    const exported = pids.map((pid) => {
      const record = afterTemplate.find((r) => r.PID === pid)!;
      return {
        sku: pid,
        category: record.PF,
        businessUnit: record.BU,
        region: record.Region,
        site: record.Site,
        overrideQ1: q1Total(afterTemplate, pid),
      };
    });
    const edited = exported.map((row, i) =>
      i < 2 ? { ...row, overrideQ1: row.overrideQ1 + 100 * (i + 1) } : row,
    );
    const modifiedBefore = await statNumber(page, 'Modified Today');
    await chooseInDialog(page, saved('export-edited.xlsx', await workbookOf(edited)));
    expect(await dialog.getByTestId('import-summary').innerText()).toBe(
      '5 of 5 rows valid · 0 errors · 0 warnings · 5 existing SKUs',
    );
    await dialog.getByRole('button', { name: 'Import 5 Rows' }).click();
    await page.waitForSelector('[data-testid="toast"]:has-text("Successfully imported 5 items")');
    const afterRoundTrip = await allRecords(page);
    for (const row of edited)
      expect([row.sku, q1Total(afterRoundTrip, row.sku)]).toEqual([row.sku, row.overrideQ1]);
    // Nothing else changed: every other record of these SKUs keeps its Final.
    const key = (r: RecordRow) => `${r.PID}|${r.Time_Series_sk}`;
    const finalBefore = new Map(afterTemplate.map((r) => [key(r), r.Final_Pln_Units]));
    const changed = afterRoundTrip.filter(
      (r) => pids.includes(r.PID) && finalBefore.get(key(r)) !== r.Final_Pln_Units,
    );
    expect(new Set(changed.map((r) => r.PID))).toEqual(new Set(pids.slice(0, 2)));
    expect(changed.every((r) => Q1.has(r.Time_Series_sk))).toBe(true);
    // Each changed week is an audit row: Modified Today counts them.
    await page.waitForFunction(
      (min) =>
        Number(
          (document.querySelector('[data-testid="stat-Modified Today"]')?.textContent ?? '').replace(
            /\D/g,
            '',
          ),
        ) >= min,
      modifiedBefore + changed.length,
    );

    // 3. A broken file: the error toast, back to upload, nothing changed.
    await chooseInDialog(
      page,
      saved('broken.xlsx', Buffer.from('PK\u0003\u0004 not really a workbook')),
      false,
    );
    await page.waitForSelector('[data-testid="toast"]:has-text("Import Error")');
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
    await screenshot(page, 'import-dialog-error');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await allRecords(page)).toEqual(afterRoundTrip);
    await context.close();
  });

  it('shows errors and warnings by row and disables Import when no row is valid, in dark mode', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.evaluate(() => {
      const settings = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('userSettings', JSON.stringify({ ...settings, theme: 'dark' }));
    });
    await page.goto('/demand-planning');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('dialog', { name: 'Import Demand Planning Data' }).waitFor();
    await screenshot(page, 'import-dialog-upload-dark');
    await page.keyboard.press('Escape');
    const csv =
      'SKU,Category,Business Unit,Forecast Q1,Last Modified\nBAD-1,,Valves,lots,someday\n,Ball Valves,Valves,,\n';
    await chooseInDialog(page, saved('invalid.csv', csv));
    const dialog = page.getByRole('dialog', { name: 'Import Demand Planning Data' });
    const issues = await dialog
      .getByRole('list', { name: 'Errors and warnings by row' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(issues.map((text) => text.replace(/\s+/g, ' '))).toEqual([
      'Error Row 2 · category: category is required but is empty',
      'Warning Row 2 · forecastQ1: Invalid number "lots" - will be set to 0',
      'Warning Row 2 · lastModified: Invalid date "someday" - will use current date',
      'Error Row 3 · sku: sku is required but is empty',
    ]);
    expect(await dialog.getByRole('button', { name: 'Import 0 Rows' }).isDisabled()).toBe(true);
    await screenshot(page, 'import-dialog-errors-dark');
    await dialog.getByRole('button', { name: 'Remove File' }).click();
    await dialog.getByText('Drag and drop a file here, or choose one').waitFor();
    await context.close();
  });
});
