import { parseArgs } from 'node:util';
import { runAiBench } from './ai.bench';
import { runBatchSaveBench } from './batch-save.bench';
import { runExportBench } from './export.bench';
import { runControlTowerBench } from './control-tower.bench';
import { runDataLoadBench } from './data-load.bench';
import { runForecastBench } from './forecast.bench';
import { runForecastRunBench } from './forecast-run.bench';
import { runForecastQueueBench } from './forecast-queue.bench';
import { runImportBench } from './import.bench';
import { runImportContentionBench } from './import-contention.bench';
import { runImportMemoryBench } from './import-memory.bench';
import { runInventoryBench } from './inventory.bench';
import { runListLatencyBench } from './list-latency.bench';
import { runOptimisationBench } from './optimisation.bench';
import { runPlannersBench } from './planners.bench';
import { runHeavyPlannersBench } from './heavy-planners.bench';
import { runGridScaleBench, runPlanningGridBench } from './planning-grid.bench';
import { runGridFirstLoadBench } from './grid-first-load.bench';
import { runGridInteractionsBench } from './grid-interactions.bench';
import { runHorizonBench } from './horizon.bench';
import { printTable, type BenchRow } from './stats';

/** `npm run bench [-- --only name]`: every benchmark, or one, printed as tables. */
const benches: Record<string, { title: string; run: () => Promise<BenchRow[]> }> = {
  list: {
    title: 'Demand record list latency (limit 1000, HTTP, default data set)',
    run: runListLatencyBench,
  },
  grid: {
    title: 'Planning grid on 20,000 × 156 in PostgreSQL (HTTP): views × sorts, spread, save',
    run: runPlanningGridBench,
  },
  'grid-scale': {
    title: 'Planning grid at 2,000 / 20,000 / 100,000 products × 156 weeks in PostgreSQL (p95, HTTP)',
    run: runGridScaleBench,
  },
  'grid-first-load': {
    title: 'Planning page first load in Chromium, cold cache, built app (default data set)',
    run: runGridFirstLoadBench,
  },
  'grid-interactions': {
    title:
      'Planning grid interactions in Chromium, built app (default data set, clock fixed): first row cold, sort, filter, level, drill-down, page, page size, spread',
    run: runGridInteractionsBench,
  },
  forecast: { title: 'Forecasting engine (worker pool, all cores)', run: runForecastBench },
  'batch-save': {
    title: 'Batch save (Save Changes) on 700 × 52 in PostgreSQL (HTTP, JIT as configured and forced)',
    run: runBatchSaveBench,
  },
  'forecast-run': { title: 'Forecast run in the product (default data set, HTTP)', run: runForecastRunBench },
  'forecast-queue': {
    title:
      'Forecast run of 20,000 products × 156 weeks of history through the job queue, one and two worker processes (PostgreSQL, budget < 90 s on 2 cores)',
    run: runForecastQueueBench,
  },
  ai: { title: 'AI assistant: offline answers and help insights (default data set, HTTP)', run: runAiBench },
  export: {
    title:
      'Spreadsheet exports: Detailed Export (700 × 52), Quick Export of 1 M records (20,000 × 156), PostgreSQL',
    run: runExportBench,
  },
  import: {
    title:
      "Spreadsheet import of a planner's 100,000-row file, CSV and .xlsx (default data set, PostgreSQL, HTTP, background job polled)",
    run: runImportBench,
  },
  'import-contention': {
    title:
      "Planners at work during a colleague's 100,000-row import: saves and reads, quiet and during (default data set, PostgreSQL)",
    run: runImportContentionBench,
  },
  'import-memory': {
    title:
      'Spreadsheet import within a fixed memory budget: 50 MB CSV and .xlsx of long notes, preview and import (PostgreSQL, server in its own process)',
    run: runImportMemoryBench,
  },
  inventory: {
    title: 'Inventory planning on 20,000 products × 3 sites in PostgreSQL (HTTP)',
    run: runInventoryBench,
  },
  'control-tower': {
    title: 'Control tower on 20,000 × 156 in PostgreSQL: snapshots, worksheet, accuracy, publish (HTTP)',
    run: runControlTowerBench,
  },
  planners: {
    title: 'Planners at once: grid, dashboard, summary, filters, saves (default data set, PostgreSQL)',
    run: runPlannersBench,
  },
  'heavy-planners': {
    title:
      "Planners' heavier mix: deep grid pages of 25–500, 1,000-record lists, roll-ups, single and 5–20 saves (default data set, PostgreSQL)",
    run: runHeavyPlannersBench,
  },
  optimisation: {
    title: 'Network optimisation solves (HiGHS, demo and large network)',
    run: runOptimisationBench,
  },
  horizon: {
    title: 'Rolling the plan horizon one week on 20,000 × 156 in PostgreSQL, grid p95 meanwhile (HTTP)',
    run: runHorizonBench,
  },
  'data-load': {
    title:
      "Admin bulk loads on PostgreSQL (HTTP, streamed upload, polled; the server in its own process, its RSS): 20,000 products, 3 years' weekly history, one week of actuals",
    run: runDataLoadBench,
  },
};

const { values } = parseArgs({ options: { only: { type: 'string' } } });
if (values.only && !benches[values.only]) {
  console.error(`Unknown benchmark "${values.only}"; choose one of: ${Object.keys(benches).join(', ')}`);
  process.exit(1);
}
for (const [name, bench] of Object.entries(benches)) {
  if (values.only && values.only !== name) continue;
  printTable(bench.title, await bench.run());
}
