import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DATA_SHEET_HEADER_ROW, TEMPLATE_COLUMNS, importQuarterWeeks } from '@ps/domain';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { downloadFromExportMenu } from './support/spreadsheets';

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

/** A record's audit trail, newest first, as the grid's cell history shows it. */
async function recordHistory(
  page: Page,
  pid: string,
  sk: string,
): Promise<Array<{ origin: string; field: string; newValue: string | null }>> {
  return page.evaluate(
    async ([p, k]) => {
      const response = await fetch(`/api/demand-planning/real-data/${encodeURIComponent(p!)}/${k}/history`, {
        headers: { authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}` },
      });
      return (
        (await response.json()) as { data: Array<{ origin: string; field: string; newValue: string | null }> }
      ).data;
    },
    [pid, sk],
  );
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

  it('previews a workbook with a typo: the zeroed quarter is marked, with its Final before → after', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await page.getByTestId('stat-Total SKUs').waitFor();
    const records = await allRecords(page);
    const sku = 'PRD-00041';
    const before = q1Total(records, sku);
    expect(before).toBeGreaterThan(0);
    const product = records.find((r) => r.PID === sku)!;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['SKU', 'Category', 'Business Unit', 'Override Q1']);
    // "abc" typed where a number belongs: the import sets the quarter to 0 (spec §5).
    sheet.addRow([sku, product.PF, product.BU, 'abc']);
    await chooseInDialog(page, saved('typo.xlsx', Buffer.from(await book.xlsx.writeBuffer())));
    const dialog = page.getByRole('dialog', { name: 'Import Demand Planning Data' });
    const cell = dialog.getByTestId(`plan-${sku}-q1`);
    expect(await cell.getAttribute('data-zeroed')).toBe('true');
    expect(await cell.innerText()).toBe(`${before.toLocaleString('en-US')} → 0`);
    expect(await cell.getAttribute('title')).toBe("set to 0: the file's value is not a number");
    await screenshot(page, 'import-dialog-typo');
    await context.close();
  });

  it('imports a filled template, round-trips a Detailed Export with two edited overrides, and refuses a broken file', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await page.getByTestId('stat-Total SKUs').waitFor();
    await page.waitForFunction(() =>
      /\d/.test(document.querySelector('[data-testid="stat-Total SKUs"]')?.textContent ?? ''),
    );
    const skusBefore = await statNumber(page, 'Total SKUs');

    // 1. Template Download, filled with two new SKUs in the workbook as a planner would in Excel.
    const template = await downloadFromExportMenu(page, 'Template Download');
    const templateSheet = template.book.getWorksheet('Import Template')!;
    const fill = (row: number, values: Record<string, string | number>) => {
      for (const [key, value] of Object.entries(values))
        templateSheet
          .getRow(row)
          .getCell(TEMPLATE_COLUMNS.indexOf(key as (typeof TEMPLATE_COLUMNS)[number]) + 1).value = value;
    };
    fill(2, {
      sku: 'E2E-IMP-1',
      category: 'Ball Valves',
      businessUnit: 'Valves',
      region: 'EMEA',
      forecastQ1: 130,
    });
    fill(3, {
      sku: 'E2E-IMP-2',
      category: 'Ball Valves',
      businessUnit: 'Valves',
      plannerName: 'Ann',
      forecastQ1: 27,
    });
    // Saved under the name the browser suggested: the download's own path has no extension.
    await chooseInDialog(page, saved(template.name, Buffer.from(await template.book.xlsx.writeBuffer())));
    const dialog = page.getByRole('dialog', { name: 'Import Demand Planning Data' });
    expect(await dialog.getByTestId('import-summary').innerText()).toBe(
      '2 of 2 rows valid · 0 errors · 0 warnings · 0 existing SKUs',
    );
    expect(
      await dialog.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow'),
    ).toBe('50');
    await screenshot(page, 'import-dialog-preview');
    // The import runs in the background; the dialog polls it. Held polls show its progress.
    const pollPath = /\/api\/demand-planning-items\/import\/\d+$/;
    await page.route(pollPath, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Import 2 Rows' }).click();
    const progress = dialog.getByTestId('import-progress');
    await progress.getByText(/^Imported \d of 2 rows\.\.\.$/).waitFor();
    expect(
      await dialog.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(
      await progress.getByRole('progressbar', { name: 'Applying the import' }).getAttribute('aria-valuenow'),
    ).toMatch(/^\d+$/);
    await screenshot(page, 'import-dialog-importing');
    await page.unroute(pollPath);
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
    ).toEqual([...Array<number>(9).fill(2.08), ...Array<number>(4).fill(2.07)]);

    // 2. The real Detailed Export of the SKUs PRD-0003x (searched in the grid: eight of the browser
    //    tests' 60 products; CIR-00030 and CIR-00035 are the customer's); two quarterly overrides
    //    edited in the downloaded workbook; that very file imported back through the dialog. The
    //    data has 13 weeks from today on, so Q1 is the quarter with records.
    const pager = await page.getByTestId('pager-summary').innerText();
    await page.locator('#dp-search').fill('PRD-0003');
    await page.locator('#dp-search').press('Enter');
    await page.waitForFunction(
      (before) => (document.querySelector('[data-testid="pager-summary"]')?.textContent ?? before) !== before,
      pager,
    );
    const exported = await downloadFromExportMenu(page, 'Detailed Export');
    const data = exported.book.getWorksheet('Demand Plan Data')!;
    const header = (data.getRow(DATA_SHEET_HEADER_ROW).values as unknown[]).slice(1);
    const column = (name: string) => header.indexOf(name) + 1;
    const skuRows = Array.from({ length: data.rowCount - DATA_SHEET_HEADER_ROW }, (_, i) =>
      data.getRow(DATA_SHEET_HEADER_ROW + 1 + i),
    );
    const pids = skuRows.map((row) => row.getCell(column('sku')).text);
    expect(pids.length).toBeGreaterThan(2);
    expect(pids.every((pid) => pid.startsWith('PRD-0003'))).toBe(true);
    const [first, second] = pids as [string, string];
    const edits = [
      { pid: first, total: q1Total(afterTemplate, first) + 100 },
      { pid: second, total: q1Total(afterTemplate, second) + 250 },
    ];
    skuRows[0]!.getCell(column('overrideQ1')).value = edits[0]!.total;
    skuRows[1]!.getCell(column('overrideQ1')).value = edits[1]!.total;
    const edited = saved(exported.name, Buffer.from(await exported.book.xlsx.writeBuffer()));

    const modifiedBefore = await statNumber(page, 'Modified Today');
    await chooseInDialog(page, edited);
    expect(await dialog.getByTestId('import-summary').innerText()).toBe(
      `${pids.length} of ${pids.length} rows valid · 0 errors · 0 warnings · ${pids.length} existing SKUs`,
    );
    await dialog.getByRole('button', { name: `Import ${pids.length} Rows` }).click();
    await page.waitForSelector(
      `[data-testid="toast"]:has-text("Successfully imported ${pids.length} items")`,
    );
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
    await screenshot(page, 'import-round-trip-grid');
    const afterRoundTrip = await allRecords(page);
    for (const edit of edits)
      expect([edit.pid, q1Total(afterRoundTrip, edit.pid)]).toEqual([edit.pid, edit.total]);
    // Nothing else changed: of the exported SKUs, only the edited quarter of each edited SKU moved.
    const key = (r: RecordRow) => `${r.PID}|${r.Time_Series_sk}`;
    const finalBefore = new Map(afterTemplate.map((r) => [key(r), r.Final_Pln_Units]));
    const changed = afterRoundTrip.filter(
      (r) => pids.includes(r.PID) && finalBefore.get(key(r)) !== r.Final_Pln_Units,
    );
    expect(new Set(changed.map((r) => r.PID))).toEqual(new Set([first, second]));
    expect(changed.every((r) => Q1.has(r.Time_Series_sk))).toBe(true);
    // Every changed week is audited as the import's change of the S&OP override.
    for (const record of changed) {
      const history = await recordHistory(page, record.PID, record.Time_Series_sk);
      expect(history[0]).toMatchObject({
        origin: 'import',
        field: 'SOP_Pln_Ovrd_Units',
        newValue: String(record.Final_Pln_Units),
      });
    }
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
