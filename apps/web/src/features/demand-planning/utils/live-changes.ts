import type { AggregatedRow, DemandRecord, GridPage, RecordChangeEvent } from '@ps/domain';
import { recordKeyOf, type PendingChanges } from './pending-changes';

const includes = (list: readonly string[] | null, value: string | undefined): boolean =>
  list === null || (value !== undefined && list.includes(value));

/**
 * Whether a committed change touches what the page shows: a row whose product, family or business
 * unit the change names (a list the server sent as "many" matches every row). A sorted page is
 * always refetched: a changed figure elsewhere can move rows into or out of it.
 */
export function isPageAffected(page: GridPage | null, change: RecordChangeEvent, isSorted: boolean): boolean {
  if (!page || isSorted) return true;
  return page.rows.some((row) => {
    if (page.viewLevel === 'business_unit') return includes(change.businessUnits, row.BU);
    if (page.viewLevel === 'category') return includes(change.families, row.PF);
    // Record and product rows: the product when the change lists them, else its family.
    return change.pids === null ? includes(change.families, row.PF) : change.pids.includes(row.PID ?? '');
  });
}

/**
 * Pending edits on records that changed on the server since the planner read them: the page on
 * screen carries a newer version. Their save would be refused as stale, so they are flagged first.
 */
export function conflictingEdits(pending: PendingChanges, page: GridPage | null): ReadonlySet<string> {
  const conflicts = new Set<string>();
  if (!page || pending.size === 0) return conflicts;
  for (const row of page.rows as (DemandRecord | AggregatedRow)[]) {
    if ('id' in row) continue;
    const key = recordKeyOf(row);
    const entry = pending.get(key);
    if (entry && row.version !== entry.version) conflicts.add(key);
  }
  return conflicts;
}
