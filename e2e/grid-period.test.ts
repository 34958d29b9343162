import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

const GRID = '[data-testid="demand-grid"]';
const GRID_API = '/api/demand-planning/grid';

async function waitForGridIdle(page: Page): Promise<void> {
  await page.locator(`${GRID} .ag-row`).first().waitFor();
  await page.getByText('Loading data...').waitFor({ state: 'detached' });
  await page.getByText('Loading Initial Data...').waitFor({ state: 'detached' });
}

type ApiRecord = { Time_Series_sk: string };
type GridAnswer = { data: { rows: Array<{ recordCount?: number }>; total: number } };

/** The server's week and horizon, and every record the page's user may see, with its token. */
async function clockAndRecords(page: Page) {
  return page.evaluate(async () => {
    const headers = { authorization: `Bearer ${localStorage.getItem('id_token')}` };
    const clock = (await (await fetch('/api/clock', { headers })).json()) as {
      data: { currentWeek: string; horizon: { weeks: number } };
    };
    const records = (await (
      await fetch('/api/demand-planning/real-data?limit=5000', { headers })
    ).json()) as {
      data: { items: ApiRecord[] };
    };
    return { clock: clock.data, records: records.data.items };
  });
}

const periodButton = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Period shortcuts' }).getByRole('button', { name, exact: true });
const urlParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
const sk = (iso: string) => iso.replaceAll('-', '');

describe('the grid period', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const gridUrls: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.url().includes(GRID_API)) gridUrls.push(request.url());
    });
    await signIn(page, 'admin');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('opens on the plan horizon: families summed over the current week to the end of the horizon', async () => {
    gridUrls.length = 0;
    await page.goto('/demand-planning');
    await waitForGridIdle(page);
    const opened = new URL(gridUrls[0]!);
    expect(opened.searchParams.get('period')).toBe('horizon');
    expect(opened.searchParams.get('viewLevel')).toBe('category');
    const first = await page.evaluate(async (url) => {
      const headers = { authorization: `Bearer ${localStorage.getItem('id_token')}` };
      return (await (await fetch(url, { headers })).json()) as GridAnswer;
    }, `${opened.pathname}${opened.search}`);

    const { clock, records } = await clockAndRecords(page);
    const ahead = records.filter((r) => r.Time_Series_sk >= sk(clock.currentWeek));
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThan(records.length);
    expect(first.data.rows.reduce((sum, row) => sum + (row.recordCount ?? 0), 0)).toBe(ahead.length);

    await expect.poll(() => page.getByTestId('period-text').innerText()).toMatch(/^Plan horizon · Weeks of /);
    expect(await periodButton(page, 'Horizon').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('From week').inputValue()).toBe(clock.currentWeek);
    const last = new Date(`${clock.currentWeek}T00:00:00Z`);
    last.setUTCDate(last.getUTCDate() + 7 * (clock.horizon.weeks - 1));
    expect(await page.getByLabel('To week').inputValue()).toBe(last.toISOString().slice(0, 10));
    expect(urlParam(page, 'period')).toBeNull();
    await screenshot(page, 'grid-period-horizon');
  });

  it('shows history and every week in one click each, in the URL and the requests', async () => {
    const { clock, records } = await clockAndRecords(page);
    await periodButton(page, 'History').click();
    await expect.poll(() => urlParam(page, 'period')).toBe('history');
    await waitForGridIdle(page);
    await expect.poll(() => page.getByTestId('period-text').innerText()).toMatch(/^History · Weeks up to /);
    expect(await page.getByLabel('From week').inputValue()).toBe('');
    expect(new URL(gridUrls.at(-1)!).searchParams.get('period')).toBe('history');
    const past = records.filter((r) => r.Time_Series_sk < sk(clock.currentWeek));
    const history = await page.evaluate(async (url) => {
      const headers = { authorization: `Bearer ${localStorage.getItem('id_token')}` };
      return ((await (await fetch(url, { headers })).json()) as GridAnswer).data;
    }, `${GRID_API}?viewLevel=none&drillDown=none&period=history&limit=1`);
    expect(history.total).toBe(past.length);

    await periodButton(page, 'All weeks').click();
    await expect.poll(() => urlParam(page, 'period')).toBe('all');
    await expect.poll(() => page.getByTestId('period-text').innerText()).toBe('Every week');
    await waitForGridIdle(page);
  });

  it('takes any day in the week pickers as its Sunday week, kept fixed in the URL across a reload', async () => {
    await periodButton(page, 'Horizon').click();
    await waitForGridIdle(page);
    const { clock } = await clockAndRecords(page);
    // The Wednesday three weeks after the current week's Sunday stands for that Sunday's week.
    const sunday = new Date(`${clock.currentWeek}T00:00:00Z`);
    sunday.setUTCDate(sunday.getUTCDate() + 21);
    const wednesday = new Date(sunday);
    wednesday.setUTCDate(wednesday.getUTCDate() + 3);
    const iso = (date: Date) => date.toISOString().slice(0, 10);

    await page.getByLabel('To week').fill(iso(wednesday));
    await expect.poll(() => urlParam(page, 'to')).toBe(iso(sunday));
    expect(urlParam(page, 'from')).toBe(clock.currentWeek);
    await expect.poll(() => page.getByLabel('To week').inputValue()).toBe(iso(sunday));
    expect(await periodButton(page, 'Horizon').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => new URL(gridUrls.at(-1)!).searchParams.get('toWeek')).toBe(iso(sunday));
    await waitForGridIdle(page);

    await page.reload();
    await waitForGridIdle(page);
    expect(await page.getByLabel('To week').inputValue()).toBe(iso(sunday));
    expect(await page.getByLabel('From week').inputValue()).toBe(clock.currentWeek);
    expect(new URL(gridUrls.at(-1)!).searchParams.get('fromWeek')).toBe(clock.currentWeek);
    expect(pageErrors).toEqual([]);
  });

  it('keeps the period in a saved view; a view saved without one reopens on the horizon', async () => {
    await periodButton(page, 'History').click();
    await waitForGridIdle(page);
    await page.getByTestId('saved-views-menu').click();
    await page.getByRole('menuitem', { name: 'Save view as…' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Past weeks');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('saved-views-menu').getByText('View: Past weeks').waitFor();

    // A view stored before periods existed: its state has no period.
    const older = await page.evaluate(async () => {
      const headers = {
        authorization: `Bearer ${localStorage.getItem('id_token')}`,
        'content-type': 'application/json',
      };
      const state = {
        layout: 'table',
        viewLevel: 'category',
        drillDown: 'none',
        bu: [],
        pf: [],
        region: [],
        search: '',
        sort: null,
        pageSize: 100,
        hiddenColumns: [],
      };
      const response = await fetch('/api/saved-views', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Older view', state }),
      });
      return ((await response.json()) as { data: { id: number } }).data.id;
    });

    await page.goto('/demand-planning');
    await waitForGridIdle(page);
    await periodButton(page, 'All weeks').click();
    await page.getByTestId('saved-views-menu').click();
    await page.getByRole('menuitem', { name: 'Past weeks' }).click();
    await expect.poll(() => urlParam(page, 'period')).toBe('history');
    expect(await periodButton(page, 'History').getAttribute('aria-pressed')).toBe('true');

    await page.goto(`/demand-planning?savedView=${older}&period=all`);
    await waitForGridIdle(page);
    await expect.poll(() => periodButton(page, 'Horizon').getAttribute('aria-pressed')).toBe('true');
    expect(urlParam(page, 'period')).toBeNull();
    expect(pageErrors).toEqual([]);

    // The admin's views belong to the other browser tests too: these two go.
    await page.evaluate(async () => {
      const headers = { authorization: `Bearer ${localStorage.getItem('id_token')}` };
      const views = (await (await fetch('/api/saved-views', { headers })).json()) as {
        data: Array<{ id: number; name: string }>;
      };
      for (const view of views.data.filter((v) => ['Past weeks', 'Older view'].includes(v.name)))
        await fetch(`/api/saved-views/${view.id}`, { method: 'DELETE', headers });
    });
  });
});
