import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage } from './support/browser';
import { gridCellText, gridHeader } from './support/grid';

const GRID = '[data-testid="demand-grid"]';
const GRID_API = '/api/demand-planning/grid';

type NotesRow = { id: string; Comments: string | null; commentCount: number | null; Reason_Codes: string[] };

/**
 * The grid's own requests, asked again with the page's token: its page (rows without notes), then
 * the notes of the page's cells, read as the grid reads them (POST …/grid/notes).
 */
async function rowsAndNotesOf(page: Page, url: string): Promise<{ rows: NotesRow[]; notes: NotesRow[] }> {
  return page.evaluate(async (url) => {
    const headers = {
      authorization: `Bearer ${localStorage.getItem('id_token')}`,
      'content-type': 'application/json',
    };
    const rows = (
      (await (await fetch(url, { headers })).json()) as { data: { rows: Array<NotesRow & { PF: string }> } }
    ).data.rows;
    const cells = rows.map((row) => ({ group: row.PF, periodKey: '' }));
    const notesUrl = url.replace('/api/demand-planning/grid?', '/api/demand-planning/grid/notes?');
    const answer = await fetch(notesUrl, { method: 'POST', headers, body: JSON.stringify({ cells }) });
    return { rows, notes: ((await answer.json()) as { data: NotesRow[] }).data };
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
      if (new URL(request.url()).pathname === GRID_API) gridUrls.push(request.url());
    });
    await signIn(page, 'admin');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it("shows each family's comment count beside its comments and reason codes once they are read", async () => {
    const notesRead = page.waitForResponse(
      (response) => new URL(response.url()).pathname === `${GRID_API}/notes`,
    );
    await page.goto('/demand-planning');
    await page.locator(`${GRID} .ag-row`).first().waitFor();
    await page.getByText('Loading data...').waitFor({ state: 'detached' });
    expect((await notesRead).status()).toBe(200);
    const opened = new URL(gridUrls[0]!);
    const { rows, notes } = await rowsAndNotesOf(page, `${opened.pathname}${opened.search}`);
    // The page leaves the notes out; the notes read answers each of its cells.
    expect(rows.every((r) => r.commentCount === null)).toBe(true);
    expect(notes.map((n) => n.id)).toEqual(rows.map((r) => r.id));
    // A family that holds more than one comment.
    const index = notes.findIndex((n) => (n.commentCount ?? 0) > 1);
    expect(index).toBeGreaterThanOrEqual(0);
    const row = notes[index]!;

    expect(await (await gridHeader(page, 'commentCount')).innerText()).toContain('Comment count');
    await expect
      .poll(() => gridCellText(page, index, 'commentCount'))
      .toBe(row.commentCount!.toLocaleString('en-US'));
    expect(await gridCellText(page, index, 'Comments')).toBe(row.Comments);
    expect(await gridCellText(page, index, 'Reason_Codes')).toBe(row.Reason_Codes.join(', '));
  });
});
