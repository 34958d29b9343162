import { DRILL_DOWNS, ROLLUP_VIEW_LEVELS, VIEW_LEVELS, type DrillDown, type ViewLevel } from '@ps/domain';
import type { BenchRow } from './stats';
import { runMixBench, type Kind, type Mix, type Session, type Target } from './planners.bench';

/**
 * The heavier planners' mix, a crowd that reads deeper and saves more than the planners bench: grid pages at every level and drill-down with page sizes
 * 25–500 and offsets anywhere in the result, some filtered or searched; 1,000-record list pages
 * (half of them followed by the next page); roll-ups; dashboard and summary; single saves after
 * reading the record for its version; batches of 5–20 records. Same load, servers and
 * environment variables as the planners' mix (planners.bench.ts).
 */
const SCREEN_DRILL_DOWNS = DRILL_DOWNS.filter((drillDown) => drillDown !== 'yearly');
const PAGE_SIZES = [25, 50, 100, 250, 500];
const GRID_SHARE = 0.52;
const OTHER_SHARE = (1 - GRID_SHARE) / 6;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Rows of each unfiltered view, learnt from its first page: later pages start anywhere in it. */
const totals = new Map<string, number>();

async function gridPage(session: Session, target: Target, viewLevel: ViewLevel, drillDown: DrillDown) {
  const kind = `grid ${viewLevel}/${drillDown}`;
  const limit = pick(PAGE_SIZES);
  const params = new URLSearchParams({ viewLevel, drillDown, limit: String(limit) });
  const roll = Math.random();
  if (roll < 0.15 && target.businessUnits.length > 0) params.set('bu', pick(target.businessUnits));
  else if (roll < 0.25) params.set('search', pick(target.pids).slice(0, -1));
  const filtered = roll < 0.25;
  const key = `${viewLevel}/${drillDown}`;
  const total = totals.get(key);
  if (!filtered && total === undefined) {
    const first = (await session.call(
      kind,
      `/api/demand-planning/grid?${params.toString()}`,
      undefined,
      true,
    )) as {
      data?: { total: number };
    } | null;
    if (first?.data) totals.set(key, first.data.total);
    return;
  }
  const deepest = filtered ? 0 : Math.max(0, (total ?? 0) - limit);
  params.set('offset', String(Math.floor(Math.random() * (deepest + 1))));
  await session.call(kind, `/api/demand-planning/grid?${params.toString()}`);
}

/** A 1,000-record page of the list, and half the time the page after it. */
async function listPages(session: Session) {
  const first = (await session.call(
    'list 1,000',
    '/api/demand-planning/real-data?limit=1000',
    undefined,
    true,
  )) as {
    data?: { nextToken: string | null };
  } | null;
  const next = first?.data?.nextToken;
  if (next && Math.random() < 0.5)
    await session.call(
      'list 1,000',
      `/api/demand-planning/real-data?limit=1000&nextToken=${encodeURIComponent(next)}`,
    );
}

/** One cell saved alone, as the grid's PUT does: read for its version, then write. */
async function singleSave(session: Session) {
  const cell = pick(session.cells);
  if (!cell) return;
  const path = `/api/demand-planning/real-data/${encodeURIComponent(cell.PID)}/${cell.Time_Series_sk}`;
  const read = (await session.call('read record', path, undefined, true)) as {
    data?: { version: number };
  } | null;
  if (!read?.data) return;
  const saved = (await session.call('single save', path, {
    method: 'PUT',
    body: JSON.stringify({
      Rev_Pln_Ovrd_Percent: Math.round(Math.random() * 20),
      version: read.data.version,
    }),
  })) as { data?: { version: number } } | null;
  if (saved?.data) cell.version = saved.data.version;
}

const HEAVY_KINDS: Kind[] = [
  ...VIEW_LEVELS.flatMap((viewLevel) => {
    const drillDowns = viewLevel === 'none' ? (['none'] as const) : SCREEN_DRILL_DOWNS;
    return drillDowns.map((drillDown): Kind => ({
      kind: `grid ${viewLevel}/${drillDown}`,
      share: GRID_SHARE / VIEW_LEVELS.length / drillDowns.length,
      run: (session, target) => gridPage(session, target, viewLevel, drillDown),
    }));
  }),
  { kind: 'list 1,000', share: OTHER_SHARE, run: (session) => listPages(session) },
  {
    kind: 'roll-up',
    share: OTHER_SHARE,
    run: (session) => session.call('roll-up', `/api/demand-planning-rollup/${pick(ROLLUP_VIEW_LEVELS)}`),
  },
  {
    kind: 'dashboard',
    share: OTHER_SHARE,
    run: (session) => session.call('dashboard', '/api/dashboard-metrics'),
  },
  { kind: 'summary', share: OTHER_SHARE, run: (session) => session.call('summary', '/api/summary-stats') },
  { kind: 'single save', share: OTHER_SHARE, run: (session) => singleSave(session) },
  {
    kind: 'batch 5–20',
    share: OTHER_SHARE,
    run: (session) => session.save(5 + Math.floor(Math.random() * 16), 'batch 5–20'),
  },
];

const HEAVY_MIX: Mix = { kinds: HEAVY_KINDS, cells: 20 };

export function runHeavyPlannersBench(): Promise<BenchRow[]> {
  return runMixBench(HEAVY_MIX);
}
