import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { signIn } from '../e2e/support/auth';
import { startBenchServer } from './bench-server';
import { coldFirstRowTimings } from './grid-first-load.bench';
import { budgetRow, type BenchRow } from './stats';

const WEB_DIST = resolve('apps/web/dist');
/** Budgets (ms, p95): first row cold, an interaction on screen, a save or spread confirmed. */
const BUDGET = { firstRow: 1500, interaction: 300, save: 500 };
/** Timed runs per case: GRID_INTERACTIONS_RUNS (a positive integer), 20 when unset. */
const RUNS = runsFromEnv(process.env.GRID_INTERACTIONS_RUNS, 20);
/** The seed's anchor week: the server's clock stays on it, so every run sees the same horizon. */
const CLOCK_TODAY = '2026-11-15';
const GRID = '[data-testid="demand-grid"]';
const FIRST_ROW = `${GRID} .ag-row[row-index="0"]`;

function runsFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`GRID_INTERACTIONS_RUNS must be a positive integer, got "${value}"`);
  return runs;
}

type Timed = { name: string; budget: number; timings: number[] };

/**
 * What the grid shows: the first rows' text, the pager's range and whether it is loading. An
 * interaction is on screen when this differs from before it and nothing is loading.
 */
const SIGNATURE = (grid: string) => {
  // Every row container (pinned and centre): a row's cells are split among them.
  const rows = Array.from(document.querySelectorAll(`${grid} .ag-row`))
    .filter((row) => Number(row.getAttribute('row-index')) < 3)
    .map((row) => `${row.getAttribute('row-index')}:${row.textContent ?? ''}`)
    .sort()
    .join('|');
  const pager = document.querySelector('[data-testid="pager-summary"]')?.textContent ?? '';
  const loading = Array.from(document.querySelectorAll(`${grid} *`)).some((el) =>
    /^(Loading data\.\.\.|Loading Initial Data\.\.\.)$/.test(el.textContent ?? ''),
  );
  return { text: `${pager}#${rows}`, loading };
};

/**
 * Times one interaction in the page's own clock: from just before `act` until a frame shows a
 * grid that differs from the one before it, with no loading overlay (polled every frame).
 */
async function timeOnScreen(page: Page, act: () => Promise<void>, timeoutMs = 30_000): Promise<number> {
  type BenchWindow = { benchStart?: number; benchSignature: typeof SIGNATURE };
  const before = await page.evaluate((grid) => {
    const w = window as unknown as BenchWindow;
    w.benchStart = performance.now();
    return w.benchSignature(grid).text;
  }, GRID);
  await act();
  const handle = await page.waitForFunction(
    ({ grid, before }) => {
      const w = window as unknown as BenchWindow;
      const now = w.benchSignature(grid);
      if (now.text === before || now.loading) return false;
      return performance.now() - w.benchStart!;
    },
    { grid: GRID, before },
    { polling: 'raf', timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as number;
}

async function choose(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).waitFor();
}

/**
 * Alternates between two states of one control, timing each switch (a warm-up pair first), and
 * ends in the state it started from (one untimed switch back after an odd number of runs), so
 * the next case starts from the view it expects.
 */
async function alternate(
  page: Page,
  runs: number,
  steps: [() => Promise<void>, () => Promise<void>],
  prepare: [() => Promise<void>, () => Promise<void>] = [async () => {}, async () => {}],
): Promise<number[]> {
  const timings: number[] = [];
  for (let i = -2; i < runs; i += 1) {
    const step = ((i % 2) + 2) % 2;
    await prepare[step]!();
    const ms = await timeOnScreen(page, steps[step]!);
    if (i >= 0) timings.push(ms);
  }
  if (runs % 2 === 1) {
    await prepare[1]();
    await timeOnScreen(page, steps[1]);
  }
  return timings;
}

async function interactionTimings(context: BrowserContext): Promise<Timed[]> {
  // An init script, which the page's content security policy allows (it forbids eval).
  await context.addInitScript(`window.benchSignature = ${SIGNATURE.toString()};`);
  const page = await context.newPage();
  await page.goto('/demand-planning');
  await page.locator(FIRST_ROW).first().waitFor({ timeout: 180_000 });
  const results: Timed[] = [];
  const add = (name: string, timings: number[], budget = BUDGET.interaction) =>
    results.push({ name, budget, timings });

  // Sort: a figure's header cycles ascending → descending → unsorted; each changes the first rows.
  const header = page.locator(`${GRID} .ag-header-cell[col-id="Final_Pln_Units"]`);
  const sortTimings: number[] = [];
  for (let i = -3; i < RUNS; i += 1) {
    const ms = await timeOnScreen(page, () => header.click());
    if (i >= 0) sortTimings.push(ms);
  }
  add('sort (Final Plan Units header, family level)', sortTimings);
  // Back to unsorted.
  while (
    (await page.locator(`${GRID} .ag-header-cell[col-id="Final_Pln_Units"]`).getAttribute('aria-sort')) !==
    'none'
  )
    await timeOnScreen(page, () => header.click());

  const search = page.getByLabel('Product ID', { exact: true });
  add(
    'filter (Product ID search applied)',
    await alternate(
      page,
      RUNS,
      [() => search.press('Enter'), () => search.press('Enter')],
      [() => search.fill('CIR'), () => search.fill('')],
    ),
  );
  add(
    'level switch (Product ID ↔ Product Family)',
    await alternate(
      page,
      RUNS,
      [
        () => page.getByRole('option', { name: 'Product ID Level', exact: true }).click(),
        () => page.getByRole('option', { name: 'Product Family Level', exact: true }).click(),
      ],
      [
        () => choose(page, 'View Level', 'Product ID Level'),
        () => choose(page, 'View Level', 'Product Family Level'),
      ],
    ),
  );
  add(
    'drill-down (Monthly ↔ none)',
    await alternate(
      page,
      RUNS,
      [
        () => page.getByRole('option', { name: 'Monthly', exact: true }).click(),
        () => page.getByRole('option', { name: 'None (No Time Grouping)', exact: true }).click(),
      ],
      [
        () => choose(page, 'Drill Down', 'Monthly'),
        () => choose(page, 'Drill Down', 'None (No Time Grouping)'),
      ],
    ),
  );

  // Paging needs several pages: products (700) at 100 a page.
  await choose(page, 'View Level', 'Product ID Level');
  await timeOnScreen(page, () => page.getByRole('option', { name: 'Product ID Level', exact: true }).click());
  add(
    'page (next ↔ previous, Product ID level)',
    await alternate(page, RUNS, [
      () => page.getByRole('button', { name: 'Next page' }).click(),
      () => page.getByRole('button', { name: 'Previous page' }).click(),
    ]),
  );
  add(
    'page size (50 ↔ 100)',
    await alternate(
      page,
      RUNS,
      [
        () => page.getByRole('option', { name: '50', exact: true }).click(),
        () => page.getByRole('option', { name: '100', exact: true }).click(),
      ],
      [() => choose(page, 'Page Size', '50'), () => choose(page, 'Page Size', '100')],
    ),
  );

  // A spread: a family's S&OP override units typed, confirmed, until the row shows the new total.
  await choose(page, 'View Level', 'Product Family Level');
  await timeOnScreen(page, () =>
    page.getByRole('option', { name: 'Product Family Level', exact: true }).click(),
  );
  await page.getByRole('button', { name: 'Edit Mode' }).click();
  const spreadTimings: number[] = [];
  for (let i = -1; i < RUNS; i += 1) {
    const cell = page.locator(`${GRID} .ag-row[row-index="1"] [col-id="SOP_Pln_Ovrd_Units"]`).first();
    await cell.dblclick();
    const editor = page.locator('.ag-cell-inline-editing input').first();
    await editor.fill(String(20_000 + i * 10));
    await editor.press('Enter');
    const dialog = page.getByTestId('spread-confirm');
    await dialog.waitFor();
    const ms = await timeOnScreen(page, () => page.getByRole('button', { name: 'Spread and Save' }).click());
    await dialog.waitFor({ state: 'detached' });
    if (i >= 0) spreadTimings.push(ms);
  }
  add('spread confirmed (family S&OP units, until the row shows it)', spreadTimings, BUDGET.save);
  await page.getByRole('button', { name: 'Exit Edit' }).click();
  return results;
}

/**
 * `--only grid-interactions`: the built app in Chromium on the default data set (700 × 52, PGlite),
 * the server's clock fixed on the seed's week: the first grid row cold, then on one warm page each
 * interaction a planner uses from the action until a frame shows the new rows (no loading overlay),
 * RUNS times each, and a spread until its row shows the new figure.
 */
export async function runGridInteractionsBench(): Promise<BenchRow[]> {
  if (!existsSync(resolve(WEB_DIST, 'index.html'))) return [{ case: 'skipped: run npm run build first' }];
  const server = await startBenchServer('pglite', { products: 700, weeks: 52 }, undefined, {
    webDistDir: WEB_DIST,
    env: { CLOCK_TODAY },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const signedIn = await browser.newContext({ baseURL: server.baseUrl });
    await signIn(await signedIn.newPage(), 'admin');
    const storageState = await signedIn.storageState();
    const rows = [
      budgetRow(
        'first grid row, cold browser cache',
        await coldFirstRowTimings(browser, server.baseUrl, storageState, RUNS),
        BUDGET.firstRow,
      ),
    ];
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      storageState,
      viewport: { width: 1440, height: 1600 },
    });
    for (const { name, timings, budget } of await interactionTimings(context))
      rows.push(budgetRow(name, timings, budget));
    await context.close();
    await signedIn.close();
    return rows;
  } finally {
    await browser.close();
    await server.close();
  }
}
