import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { signIn } from '../e2e/support/auth';
import { gridCell } from '../e2e/support/grid';
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

/** A cell that must show a figure (its digits, whatever the number format) for a save to count as confirmed. */
type ExpectedFigure = { selector: string; units: number };

/**
 * Times one interaction in the page's own clock: from just before `act` until a frame shows a
 * grid that differs from the one before it, with no loading overlay (polled every frame). With
 * `figures`, also until each of those cells shows its figure: a save is confirmed when the saved
 * figure is on screen, not when anything in the rows changed (clearing the pending edits alone
 * changes them back to the old figures for a moment).
 */
async function timeOnScreen(
  page: Page,
  act: () => Promise<void>,
  figures: ExpectedFigure[] = [],
  timeoutMs = 30_000,
): Promise<number> {
  type BenchWindow = { benchStart?: number; benchSignature: typeof SIGNATURE };
  const before = await page.evaluate((grid) => {
    const w = window as unknown as BenchWindow;
    w.benchStart = performance.now();
    return w.benchSignature(grid).text;
  }, GRID);
  await act();
  const handle = await page.waitForFunction(
    ({ grid, before, figures }) => {
      const w = window as unknown as BenchWindow;
      const now = w.benchSignature(grid);
      if (now.text === before || now.loading) return false;
      // Inline: a named function here would be given a helper the page does not have (tsx keeps names).
      if (
        !figures.every(
          (figure) =>
            (document.querySelector(figure.selector)?.textContent ?? '').replace(/\D/g, '') ===
            String(figure.units),
        )
      )
        return false;
      return performance.now() - w.benchStart!;
    },
    { grid: GRID, before, figures },
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

/**
 * Types S&OP override units into a row's cell (edit mode on), a new figure each run after one
 * warm-up, and times `confirm` until the row's final plan shows the typed units. The timing
 * starts at the confirming click: typing (and `prepare`, a spread's preview) go at the planner's pace.
 */
async function editTimings(
  page: Page,
  rowIndex: number,
  steps: { prepare: () => Promise<void>; confirm: () => Promise<void> },
): Promise<number[]> {
  const row = `${GRID} .ag-row[row-index="${rowIndex}"]`;
  const timings: number[] = [];
  for (let i = -1; i < RUNS; i += 1) {
    const units = 20_000 + (i + 1) * 10;
    // The final plan's cell drawn (the grid draws the columns in view), the edited one beside it.
    await gridCell(page, rowIndex, 'Final_Pln_Units');
    await page.locator(`${row} [col-id="SOP_Pln_Ovrd_Units"]`).first().dblclick();
    const editor = page.locator('.ag-cell-inline-editing input').first();
    await editor.fill(String(units));
    await editor.press('Enter');
    await editor.waitFor({ state: 'detached' });
    await steps.prepare();
    const figure = { selector: `${row} [col-id="Final_Pln_Units"]`, units };
    const ms = await timeOnScreen(page, steps.confirm, [figure]);
    if (i >= 0) timings.push(ms);
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

  // A save: one record's S&OP override units typed in the original table and saved, until its
  // final plan shows them (the final plan is the S&OP units when they are set).
  await choose(page, 'View Level', 'None (Show Original Table)');
  await timeOnScreen(page, () =>
    page.getByRole('option', { name: 'None (Show Original Table)', exact: true }).click(),
  );
  await page.getByRole('button', { name: 'Edit Mode' }).click();
  add(
    'save confirmed (one record S&OP units, until its final plan shows it)',
    await editTimings(page, 0, {
      prepare: async () => {},
      confirm: () => page.getByRole('button', { name: 'Save Changes (1)' }).click(),
    }),
    BUDGET.save,
  );
  await page.getByRole('button', { name: 'Exit Edit' }).click();

  // A spread: a family's S&OP override units typed, confirmed, until the row's final plan reads
  // the typed total (the spread makes the records' final plans add up to it).
  await choose(page, 'View Level', 'Product Family Level');
  await timeOnScreen(page, () =>
    page.getByRole('option', { name: 'Product Family Level', exact: true }).click(),
  );
  await page.getByRole('button', { name: 'Edit Mode' }).click();
  const dialog = page.getByTestId('spread-confirm');
  add(
    'spread confirmed (family S&OP units, until the row shows it)',
    await editTimings(page, 1, {
      // The spread's preview answers first (the confirmation shows what it moves).
      prepare: () => dialog.waitFor(),
      confirm: () => page.getByRole('button', { name: 'Spread and Save' }).click(),
    }),
    BUDGET.save,
  );
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Exit Edit' }).click();
  return results;
}

/**
 * `--only grid-interactions`: the built app in Chromium on the default data set (700 × 52, PGlite),
 * the server's clock fixed on the seed's week: the first grid row cold, then on one warm page each
 * interaction a planner uses from the action until a frame shows the new rows (no loading overlay),
 * RUNS times each, and a save and a spread until their row shows the saved figure.
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
