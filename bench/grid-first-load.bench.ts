import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { signIn } from '../e2e/support/auth';
import { startBenchServer } from './bench-server';
import { budgetRow, type BenchRow } from './stats';

const WEB_DIST = resolve('apps/web/dist');
/** Issue 15, Must 8: the first grid row on screen, cold cache, built app (ms, p95). */
const BUDGET_MS = 1500;
const RUNS = 10;

/**
 * `--only grid-first-load`: the built app in Chromium on the default data set (700 × 52, PGlite):
 * a signed-in planner opens /demand-planning with an empty HTTP cache (a new browser context each
 * run, the sign-in kept) until the grid's first row is on screen.
 */
export async function runGridFirstLoadBench(): Promise<BenchRow[]> {
  if (!existsSync(resolve(WEB_DIST, 'index.html'))) return [{ case: 'skipped: run npm run build first' }];
  const server = await startBenchServer('pglite', { products: 700, weeks: 52 }, undefined, {
    webDistDir: WEB_DIST,
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
    await signedIn.close();
    const timings: number[] = [];
    for (let run = 0; run <= RUNS; run += 1) {
      const context = await browser.newContext({
        baseURL: server.baseUrl,
        storageState,
        viewport: { width: 1440, height: 1600 },
      });
      const page = await context.newPage();
      const started = performance.now();
      await page.goto('/demand-planning');
      await page
        .locator('[data-testid="demand-grid"] .ag-row[row-index="0"] [col-id="PF"]')
        .first()
        .waitFor({ timeout: run === 0 ? 180_000 : 60_000 });
      // The first run warms the server (plans, caches), as a planner's colleagues already have.
      if (run > 0) timings.push(performance.now() - started);
      await context.close();
    }
    return [budgetRow('first grid row, cold browser cache (default view)', timings, BUDGET_MS)];
  } finally {
    await browser.close();
    await server.close();
  }
}
