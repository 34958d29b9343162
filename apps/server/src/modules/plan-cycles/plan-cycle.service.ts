import {
  quarterStartOf,
  toIsoDate,
  weekKey,
  weekStartSunday,
  type PlanCycle,
  type PlanCyclePreview,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { Notifier } from '../notifications';
import type { Database } from '../../db/schema';
import { notifyNewExceptions, snapshotForecasts, startMarketingCycle } from '../control-tower';
import {
  finalPlanTotals,
  findRunningForecast,
  insertPlanVersion,
  listPlanVersions,
  lockPublishing,
  publishTime,
  shiftPublishedPlans,
  type PlanVersionRow,
} from './plan-cycle.repository';
import { keepPublishedFigures } from './published-plan.repository';

function toPlanCycle(row: PlanVersionRow): PlanCycle {
  return {
    id: row.id,
    clientId: row.client_id,
    cycle: row.cycle,
    label: row.label,
    publishedAt: new Date(row.published_at).toISOString(),
    publishedBy: row.published_by,
    recordCount: row.record_count,
    units: row.final_units,
    cost: row.final_cost,
    revenue: row.final_revenue,
    quarters: row.quarters,
  };
}

/**
 * Plan cycles (docs/metrics.md "Plan cycles"): publishing makes each record's Final plan
 * its P1 and its previous P1 its P2, for the records of the clients in scope from the current
 * quarter on, and records one plan version per client with the Final totals by quarter, all in
 * one transaction.
 */
export class PlanCycleService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
    private readonly notifier?: Notifier,
  ) {}

  async preview(scope: AccessScope, clientContext: string | undefined): Promise<PlanCyclePreview[]> {
    return finalPlanTotals(this.db, narrowToContext(scope, clientContext).clientIds);
  }

  async publish(
    scope: AccessScope,
    request: { label?: string | undefined; clientContext?: string | undefined },
  ): Promise<PlanCycle[]> {
    const { clientIds } = narrowToContext(scope, request.clientContext);
    const week = weekStartSunday(this.now());
    const cycle = weekKey(week);
    const label = request.label ?? `Cycle ${cycle}`;
    const rows = await this.db.transaction().execute(async (trx) => {
      await lockPublishing(trx);
      // A run rewrites the plan in many small commits: publishing meanwhile would publish a plan
      // that is half old forecast, half new. Checked after the lock so a waiting publish sees
      // a run that started while it waited.
      const run = await findRunningForecast(trx, clientIds);
      if (run) {
        throw new AppError(
          'BUSY',
          `Forecast run ${run.id} (started by ${run.requested_by}) is rewriting the plan. Publish after it finishes.`,
        );
      }
      const publishedAt = await publishTime(trx);
      const fromWeek = toIsoDate(quarterStartOf(week));
      await shiftPublishedPlans(trx, clientIds, fromWeek);
      // What this cycle said about the coming weeks, for accuracy by lag once actuals arrive.
      await snapshotForecasts(trx, clientIds, 'publish', toIsoDate(week));
      await startMarketingCycle(trx, clientIds, cycle);
      const published: PlanVersionRow[] = [];
      for (const totals of await finalPlanTotals(trx, clientIds)) {
        const version = await insertPlanVersion(trx, {
          cycle,
          label,
          publishedBy: scope.userName,
          publishedAt,
          totals,
        });
        // What this version published per product and week, for the plan sent out.
        await keepPublishedFigures(trx, { id: version.id, clientId: totals.clientId }, fromWeek);
        published.push(version);
      }
      return published;
    });
    await this.notifier?.notify({
      recipients: { clientIds },
      exceptUserId: scope.userId,
      kind: 'plan-cycle-published',
      content: { label, by: scope.userName },
    });
    if (this.notifier) await notifyNewExceptions(this.db, clientIds, this.notifier);
    return rows.map(toPlanCycle);
  }

  async list(scope: AccessScope, clientContext: string | undefined): Promise<PlanCycle[]> {
    const rows = await listPlanVersions(this.db, narrowToContext(scope, clientContext).clientIds);
    return rows.map(toPlanCycle);
  }
}
