import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage } from './support/browser';
import { gridCellText, gridHeader } from './support/grid';

const GRID = '[data-testid="demand-grid"]';
const GRID_API = '/api/demand-planning/grid';

type NotesRow = { Comments: string | null; commentCount: number; Reason_Codes: string[] };

/** The grid's own first request, asked again with the page's token: the rows the grid shows. */
async function rowsOf(page: Page, url: string): Promise<NotesRow[]> {
  return page.evaluate(async (url) => {
    const headers = { authorization: `Bearer ${localStorage.getItem('id_token')}` };
    return ((await (await fetch(url, { headers })).json()) as { data: { rows: NotesRow[] } }).data.rows;
  }, url);
}

describe('the notes of roll-up rows', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const gridUrls: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    page.on('request', (request) => {
      if (request.url().includes(GRID_API)) gridUrls.push(request.url());
    });
    await signIn(page, 'admin');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it("shows each family's comment count beside its comments and reason codes", async () => {
    await page.goto('/demand-planning');
    await page.locator(`${GRID} .ag-row`).first().waitFor();
    await page.getByText('Loading data...').waitFor({ state: 'detached' });
    const opened = new URL(gridUrls[0]!);
    const rows = await rowsOf(page, `${opened.pathname}${opened.search}`);
    // A family that holds more than one comment.
    const index = rows.findIndex((r) => r.commentCount > 1);
    expect(index).toBeGreaterThanOrEqual(0);
    const row = rows[index]!;

    expect(await (await gridHeader(page, 'commentCount')).innerText()).toContain('Comment count');
    expect(await gridCellText(page, index, 'commentCount')).toBe(row.commentCount.toLocaleString('en-US'));
    expect(await gridCellText(page, index, 'Comments')).toBe(row.Comments);
    expect(await gridCellText(page, index, 'Reason_Codes')).toBe(row.Reason_Codes.join(', '));
  });
});
