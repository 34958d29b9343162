import type { PlanningPolicy } from '@ps/domain';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** The policy in force (one row, written by migration 0063). */
export async function readPlanningPolicy(db: Db): Promise<PlanningPolicy> {
  const row = await db
    .selectFrom('planning_policy')
    .select(['require_override_reason'])
    .executeTakeFirstOrThrow();
  return { requireOverrideReason: row.require_override_reason };
}

export async function savePlanningPolicy(
  db: Db,
  policy: PlanningPolicy,
  by: string,
): Promise<PlanningPolicy> {
  const row = await db
    .updateTable('planning_policy')
    .set({ require_override_reason: policy.requireOverrideReason, updated_at: new Date(), updated_by: by })
    .returning(['require_override_reason'])
    .executeTakeFirstOrThrow();
  return { requireOverrideReason: row.require_override_reason };
}
