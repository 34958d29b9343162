import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { restoreDefaultSettings } from './support/settings';

type Period = { key: string; label: string; isPast: boolean };
type RecordRow = {
  PID: string;
  Time_Series: string;
  Prelim_Pln_Units: number | null;
  Final_Pln_Units: number | null;
};

/** Calls the API with the signed-in user's token, as the page does. */
async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, {
      headers: { Authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}` },
    });
    return ((await response.json()) as { data: unknown }).data;
  }, path) as Promise<T>;
}

const cell = (page: Page, pid: string, measure: string, period: string) =>
  page.getByTestId(`tp-cell-${pid}-${measure}-${period}`);

/** The product's Prelim and Final units per month, summed from its records. */
async function monthlyUnits(page: Page, pid: string) {
  const records = (
    await api<{ rows: RecordRow[] }>(
      page,
      `/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=500&search=${pid}`,
    )
  ).rows.filter((r) => r.PID === pid);
  const byMonth = new Map<string, { prelim: number; final: number }>();
  for (const r of records) {
    const month = r.Time_Series.slice(0, 7);
    const sums = byMonth.get(month) ?? { prelim: 0, final: 0 };
    sums.prelim += r.Prelim_Pln_Units ?? 0;
    sums.final += r.Final_Pln_Units ?? 0;
    byMonth.set(month, sums);
  }
  return byMonth;
}

describe('the time-phased planning view', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;
  let pid: string;
  let open: Period[];

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ page } = await newPage(browser, baseUrl));
    await page.setViewportSize({ width: 1440, height: 1100 });
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();
    // One product far from the rows the other browser tests edit.
    pid = (
      await api<{ rows: Array<{ PID: string }> }>(
        page,
        '/api/demand-planning/grid?viewLevel=none&drillDown=none&period=horizon&offset=450&limit=1',
      )
    ).rows[0]!.PID;
    const periods = (
      await api<{ periods: Period[] }>(
        page,
        `/api/demand-planning/time-phased?viewLevel=sku&bucket=monthly&search=${pid}`,
      )
    ).periods;
    open = periods.filter((p) => !p.isPast);
    expect(open.length).toBeGreaterThanOrEqual(4);
    expect(periods.some((p) => p.isPast)).toBe(true);
    // A shared link opens the time-phased view of one product by month.
    await page.goto(`/demand-planning?layout=time-phased&view=sku&drill=monthly&q=${pid}`);
    await cell(page, pid, 'final', open[0]!.key).waitFor();
  });
  afterAll(async () => browser?.close());

  it('edits a cell by keyboard: typing replaces, Escape cancels, Enter confirms and spreads', async () => {
    const target = cell(page, pid, 'sopOverrideUnits', open[1]!.key);
    await target.click();
    // Escape throws the typed figure away: no confirmation, nothing saved.
    await page.keyboard.type('9');
    await page.getByRole('textbox', { name: /S&OP Plan Override Units of/ }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('textbox').count()).toBe(0);
    expect(await page.getByTestId('spread-confirm').count()).toBe(0);

    // Arrows move: up one row (S&OP %) and back down, then typing replaces the value.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('480');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('spread-confirm');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('1 edited cell');
    await page.getByRole('button', { name: 'Spread and Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => cell(page, pid, 'final', open[1]!.key).innerText(), { timeout: 30_000 })
      .toBe('480');
    expect((await monthlyUnits(page, pid)).get(open[1]!.key)?.final).toBe(480);
  });

  it('pastes a 3 × 4 range from Excel into open override cells and saves it as one batch', async () => {
    // Rows Rev Plan Override Units, S&OP Plan Override %, S&OP Plan Override Units × four open months.
    const block = [
      [100, 110, 120, 130],
      [5, 5, 5, 5],
      [200, 210, 220, 230],
    ];
    const months = open.slice(0, 4).map((p) => p.key);
    await cell(page, pid, 'revOverrideUnits', months[0]!).click();
    await page.evaluate(
      (text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document
          .querySelector('[data-testid="time-phased-grid"]')!
          .dispatchEvent(
            new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
          );
      },
      `${block.map((row) => row.join('\t')).join('\r\n')}\r\n`,
    );
    const dialog = page.getByTestId('spread-confirm');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('12 edited cells');
    // The pasted figures wait, marked, until the planner confirms.
    expect(await cell(page, pid, 'sopOverrideUnits', months[3]!).innerText()).toBe('230');
    await screenshot(page, 'time-phased-paste-confirm');
    await page.getByRole('button', { name: 'Spread and Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Each month's records add up to the pasted units: Prelim to the Rev row, Final to the S&OP
    // units row (units replace the percent of the same stage, pasted before them).
    await expect
      .poll(async () => cell(page, pid, 'final', months[3]!).innerText(), { timeout: 30_000 })
      .toBe('230');
    const units = await monthlyUnits(page, pid);
    months.forEach((month, i) => {
      expect([month, units.get(month)?.prelim]).toEqual([month, block[0]![i]]);
      expect([month, units.get(month)?.final]).toEqual([month, block[2]![i]]);
    });
    expect(await cell(page, pid, 'finalMinusP1', months[0]!).innerText()).not.toBe('');

    // The whole paste was one save: one undo reverts all twelve cells.
    await page.getByRole('button', { name: 'Undo Last Save' }).click();
    // Asked first, with the size of the save: the twelve pasted cells, in as many records.
    const confirm = page.getByTestId('undo-confirm');
    await expect.poll(() => confirm.innerText()).toMatch(/This reverts your last save on \d+ records\./);
    await confirm.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(async () => (await monthlyUnits(page, pid)).get(months[3]!)?.final, { timeout: 30_000 })
      .not.toBe(230);
    await screenshot(page, 'time-phased-light');
  });

  it('refuses a paste reaching a past month, and looks right in the dark theme', async () => {
    const past = (
      await api<{ periods: Period[] }>(
        page,
        `/api/demand-planning/time-phased?viewLevel=sku&bucket=monthly&search=${pid}`,
      )
    ).periods.filter((p) => p.isPast);
    await cell(page, pid, 'sopOverrideUnits', past.at(-1)!.key).click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', '1\t2\n');
      document
        .querySelector('[data-testid="time-phased-grid"]')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.waitForSelector('[data-testid="toast"]:has-text("Paste Refused")');
    expect(await page.getByTestId('spread-confirm').count()).toBe(0);

    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: 'dark' }));
    });
    await page.reload();
    await cell(page, pid, 'final', open[0]!.key).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
      .toBe(true);
    await screenshot(page, 'time-phased-dark');
    await restoreDefaultSettings(page);
  });

  it('opens on the current period, the closed ones scrolled out of view to the left', async () => {
    const weeks = (
      await api<{ periods: Period[] }>(
        page,
        `/api/demand-planning/time-phased?viewLevel=sku&bucket=weekly&search=${pid}`,
      )
    ).periods;
    const firstOpen = weeks.find((p) => !p.isPast)!;
    await page.goto(`/demand-planning?layout=time-phased&view=sku&drill=weekly&q=${pid}`);
    await cell(page, pid, 'final', firstOpen.key).waitFor();
    const grid = page.getByTestId('time-phased-grid');
    const edges = await grid.evaluate((element, firstOpen) => {
      const labels = Array.from(element.querySelectorAll('thead th[data-label-column]'));
      const headers = Array.from(element.querySelectorAll<HTMLElement>('thead th[data-period]'));
      const open = headers.find((th) => th.dataset.period === firstOpen)!;
      const lastPast = headers[headers.indexOf(open) - 1]!;
      return {
        labelsRight: Math.max(...labels.map((th) => th.getBoundingClientRect().right)),
        openLeft: open.getBoundingClientRect().left,
        lastPastRight: lastPast.getBoundingClientRect().right,
        scrolled: element.scrollLeft,
      };
    }, firstOpen.key);
    expect(edges.scrolled).toBeGreaterThan(0);
    expect(Math.abs(edges.openLeft - edges.labelsRight)).toBeLessThanOrEqual(2);
    expect(edges.lastPastRight).toBeLessThanOrEqual(edges.labelsRight + 2);
  });
});
