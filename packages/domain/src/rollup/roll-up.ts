import { SUMMED_FIELDS, type DemandRecord, type SummedField } from '../demand-record';
import type { AggregatedRow, DrillDown, ViewLevel } from '../planning-grid';
import {
  averageRank,
  businessUnitOrFallback,
  countComments,
  familyOrFallback,
  hasCostOrRevenueData,
  joinComments,
  latestUpdate,
  overrideWeightOf,
  pickReasonCodes,
  sumAmounts,
  weightedPercent,
} from './rules';
import { periodKeyOf, periodLabelOf } from './time-buckets';

/**
 * Pure reference of the grid's roll-ups: what the server's SQL must return for the same records
 * (an API test compares the two). Summed cells may arrive as text ('$1,234.50'), as in imports.
 */
export type RollupRecord = Pick<
  DemandRecord,
  | 'PID'
  | 'Time_Series_sk'
  | 'BU'
  | 'PF'
  | 'Rank'
  | 'Rev_Pln_Ovrd_Percent'
  | 'SOP_Pln_Ovrd_Percent'
  | 'Reason_Code'
  | 'Comments'
  | 'last_updated_at'
> &
  Record<SummedField, number | string | null>;

/** Id prefix of a group per view level; 'none' with a drill-down groups per PID per period. */
const ID_PREFIX: Record<ViewLevel, string> = { none: 'pid', sku: 'pid', category: 'pf', business_unit: 'bu' };

/** The attribute a view level groups by: PID for none and sku, Product Family, Business Unit. */
export function groupNameOf(viewLevel: ViewLevel, record: Pick<RollupRecord, 'PID' | 'PF' | 'BU'>): string {
  switch (viewLevel) {
    case 'none':
    case 'sku':
      return record.PID;
    case 'category':
      return familyOrFallback(record.PF);
    case 'business_unit':
      return businessUnitOrFallback(record.BU);
  }
}

/** Grid order within a group and for original rows: PID, then week (code-point order, as SQL's COLLATE "C"). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (a: RollupRecord, b: RollupRecord): number =>
  compareText(a.PID, b.PID) || compareText(a.Time_Series_sk, b.Time_Series_sk);

const weekStartOfSk = (sk: string): string => `${sk.slice(0, 4)}-${sk.slice(4, 6)}-${sk.slice(6, 8)}`;

type Group = { name: string; periodKey: string | null; records: RollupRecord[] };

/** Rolls records up to one row per group, in grid order: groups with data first, then name, then period. */
export function rollUp(
  records: readonly RollupRecord[],
  viewLevel: ViewLevel,
  drillDown: DrillDown,
): AggregatedRow[] {
  if (viewLevel === 'none' && drillDown === 'none')
    throw new Error('View level none without a drill-down shows the records themselves');
  const groups = new Map<string, Group>();
  for (const record of [...records].sort(byKey)) {
    const name = groupNameOf(viewLevel, record);
    const periodKey =
      drillDown === 'none' ? null : periodKeyOf(drillDown, weekStartOfSk(record.Time_Series_sk));
    const id = `${ID_PREFIX[viewLevel]}:${name}${periodKey === null ? '' : `|${periodKey}`}`;
    const group = groups.get(id) ?? { name, periodKey, records: [] };
    group.records.push(record);
    groups.set(id, group);
  }
  const rows = [...groups.entries()].map(([id, group]) => ({
    row: aggregate(id, group, viewLevel, drillDown),
    hasData: group.records.some(hasCostOrRevenueData),
    group,
  }));
  rows.sort(
    (a, b) =>
      Number(b.hasData) - Number(a.hasData) ||
      compareText(a.group.name, b.group.name) ||
      compareText(a.group.periodKey ?? '', b.group.periodKey ?? ''),
  );
  return rows.map(({ row }) => row);
}

function aggregate(id: string, group: Group, viewLevel: ViewLevel, drillDown: DrillDown): AggregatedRow {
  const { records } = group;
  const first = records[0]!;
  const sums = Object.fromEntries(
    SUMMED_FIELDS.map((field) => [field, sumAmounts(records.map((r) => r[field]))]),
  ) as Record<SummedField, number | null>;
  const percentOf = (field: 'Rev_Pln_Ovrd_Percent' | 'SOP_Pln_Ovrd_Percent') =>
    weightedPercent(records.map((r) => ({ percent: r[field], weight: overrideWeightOf(r) })));
  const businessUnits = new Set(records.map((r) => businessUnitOrFallback(r.BU)));
  const keys: Pick<AggregatedRow, 'PID' | 'PF' | 'BU'> =
    viewLevel === 'business_unit'
      ? { BU: group.name }
      : viewLevel === 'category'
        ? { PF: group.name, ...(businessUnits.size === 1 ? { BU: [...businessUnits][0]! } : {}) }
        : { PID: group.name, PF: familyOrFallback(first.PF), BU: businessUnitOrFallback(first.BU) };
  return {
    id,
    viewLevel,
    drillDown,
    ...keys,
    ...(group.periodKey !== null && drillDown !== 'none'
      ? { periodKey: group.periodKey, periodLabel: periodLabelOf(drillDown, group.periodKey) }
      : {}),
    recordCount: records.length,
    ...sums,
    Rev_Pln_Ovrd_Percent: percentOf('Rev_Pln_Ovrd_Percent'),
    SOP_Pln_Ovrd_Percent: percentOf('SOP_Pln_Ovrd_Percent'),
    Rank: averageRank(records.map((r) => r.Rank)),
    Comments: joinComments(records.map((r) => r.Comments)),
    commentCount: countComments(records.map((r) => r.Comments)),
    Reason_Codes: pickReasonCodes(records.map((r) => r.Reason_Code)),
    last_updated_at: latestUpdate(records.map((r) => r.last_updated_at)),
  };
}
