import {
  finalMinusP1,
  TIME_PHASED_MEASURES,
  timePhasedPeriods,
  toIsoDate,
  weekStartSunday,
  type TimePhasedItem,
  type TimePhasedMeasure,
  type TimePhasedPage,
  type TimePhasedQuery,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import type { PlanningGridService } from './planning-grid.service';
import { timePhasedPage } from './time-phased.repository';

/** The time-phased planning view: items × measures × periods, scoped to the caller. */
export class TimePhasedService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly grid: PlanningGridService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async page(scope: AccessScope, query: TimePhasedQuery): Promise<TimePhasedPage> {
    const rows = await timePhasedPage(this.db, {
      viewLevel: query.viewLevel,
      bucket: query.bucket,
      filters: this.grid.filtersOf(scope, query),
      offset: query.offset,
      limit: query.limit,
    });
    const currentWeek = toIsoDate(weekStartSunday(this.now()));
    const periods = timePhasedPeriods(
      query.bucket,
      rows.flatMap((row) => (row.k === null ? [] : [row.k])),
      currentWeek,
    );
    const column = new Map(periods.map((period, i) => [period.key, i]));
    const items = new Map<string, TimePhasedItem>();
    for (const row of rows) {
      if (row.g === null) continue;
      const item = items.get(row.g) ?? emptyItem(row.g, periods.length);
      items.set(row.g, item);
      if (row.k === null) continue;
      const at = column.get(row.k)!;
      item.recordCount += row.recordCount ?? 0;
      for (const measure of TIME_PHASED_MEASURES)
        item.values[measure.id][at] =
          measure.field === null
            ? finalMinusP1(row.Final_Pln_Units, row.P1_Pub_Pln_Units)
            : row[measure.field];
    }
    return {
      viewLevel: query.viewLevel,
      bucket: query.bucket,
      currentWeek,
      periods,
      items: [...items.values()],
      totalItems: rows[0]?.total ?? 0,
      offset: query.offset,
      limit: query.limit,
    };
  }
}

function emptyItem(group: string, periods: number): TimePhasedItem {
  const values = Object.fromEntries(
    TIME_PHASED_MEASURES.map((measure) => [measure.id, Array<number | null>(periods).fill(null)]),
  ) as Record<TimePhasedMeasure, Array<number | null>>;
  return { group, recordCount: 0, values };
}
