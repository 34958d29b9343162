import { addWeeks, CLIENT_IDS, REASON_CODES, roundToCents, toIsoDate } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { demoForecast, type DemoOptions, type DemoProduct } from './generate-demo-data';
import { createRandom, streamSeed } from './random';

/** Weeks a snapshot covers (lag 0 to 25), as the live snapshots (control-tower SNAPSHOT_WEEKS). */
const SNAPSHOT_WEEKS = 26;
/** Weekly forecast runs over the last quarter, besides one snapshot per past cycle. */
const WEEKLY_RUN_WEEKS = 13;
const CYCLE_WEEKS = 13;

export type DemoSnapshot = {
  pid: string;
  snapshot_week: string;
  reason_code: string | null;
  naive_units: number | null;
  stat_units: Array<number | null>;
  prelim_units: Array<number | null>;
  final_units: Array<number | null>;
};

/**
 * The forecast snapshots a product's past would have left: one per past
 * quarterly cycle (published `2 + 13k` weeks before the anchor, as the seeded plan versions) and
 * one per weekly forecast run over the last quarter. The statistical forecast is the demo
 * forecaster from what was known then; some products carry planner overrides, which lean
 * towards what really happened (planners know about orders the history does not show) but add
 * their own noise, so forecast value add comes out mixed, as in practice. Only snapshots that
 * reach into the records' window are kept: older ones could never be compared.
 */
export function demoSnapshots(
  product: DemoProduct,
  index: number,
  options: DemoOptions,
  actuals: readonly number[],
  windowStart: Date,
  cycles: number,
): DemoSnapshot[] {
  const random = createRandom(streamSeed(options.seed ^ 0x5a95, index));
  const offsets = new Set<number>();
  for (let k = 0; k < cycles; k += 1) offsets.add(2 + CYCLE_WEEKS * k);
  for (let o = 1; o <= WEEKLY_RUN_WEEKS; o += 1) offsets.add(o);
  const snapshots: DemoSnapshot[] = [];
  for (const offset of [...offsets].sort((a, b) => b - a)) {
    const origin = actuals.length - offset;
    const week = addWeeks(options.anchor, -offset);
    if (origin < 2 || addWeeks(week, SNAPSHOT_WEEKS) <= windowStart) continue;
    const isOverridden = random.chance(0.3);
    const from = random.int(0, 8);
    const to = from + random.int(3, 10);
    const insight = random.between(-0.3, 0.8);
    const sopStep = random.chance(0.4) ? random.between(-0.06, 0.08) : 0;
    const stat: number[] = [];
    const prelim: number[] = [];
    const final: number[] = [];
    for (let lag = 0; lag < SNAPSHOT_WEEKS; lag += 1) {
      const s = demoForecast(actuals, origin, lag + 1);
      const actual = actuals[origin + lag];
      let p = s;
      if (isOverridden && lag >= from && lag < to) {
        const known = actual ?? s * (1 + random.between(-0.1, 0.15));
        p = Math.max(0, Math.round(s + insight * (known - s) + s * 0.1 * random.normal()));
      }
      stat.push(s);
      prelim.push(p);
      final.push(sopStep === 0 || p === s ? p : Math.max(0, Math.round(p * (1 + sopStep))));
    }
    snapshots.push({
      pid: product.pid,
      snapshot_week: toIsoDate(week),
      reason_code: isOverridden ? random.pick(REASON_CODES) : null,
      naive_units: actuals[origin - 1] ?? null,
      stat_units: stat,
      prelim_units: prelim,
      final_units: final,
    });
  }
  return snapshots;
}

export const arrayLiteral = (values: ReadonlyArray<number | null>): string =>
  `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;

/** One insert per batch; arrays travel as text literals (unnest would flatten arrays of arrays). */
export async function insertSnapshots(db: Kysely<Database>, rows: readonly DemoSnapshot[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into forecast_snapshots
      (pid, snapshot_week, source, reason_code, naive_units, stat_units, prelim_units, final_units)
    select pid, week, 'history', reason, naive, stat::real[], prelim::real[], final::real[]
    from unnest(${rows.map((r) => r.pid)}::text[], ${rows.map((r) => r.snapshot_week)}::date[],
      ${rows.map((r) => r.reason_code)}::text[], ${rows.map((r) => r.naive_units)}::real[],
      ${rows.map((r) => arrayLiteral(r.stat_units))}::text[], ${rows.map((r) => arrayLiteral(r.prelim_units))}::text[],
      ${rows.map((r) => arrayLiteral(r.final_units))}::text[])
      as x(pid, week, reason, naive, stat, prelim, final)`.execute(db);
}

/** The accuracy sums and snapshot weeks of the loaded snapshots (migration 0018), in one pass. */
export async function summariseSnapshots(db: Kysely<Database>): Promise<void> {
  await sql`insert into snapshot_weeks (client_id, snapshot_week)
    select distinct p.client_id, s.snapshot_week from forecast_snapshots s join products p on p.pid = s.pid
    on conflict do nothing`.execute(db);
  await sql`select refresh_accuracy(array(select pid from products))`.execute(db);
}

/**
 * Marketing plans of each client's latest two cycles, per BU, family, region and quarter: the final
 * plan of the group's quarter moved by a family bias drawn in −4 % … +12 % (marketing plans run
 * optimistic) and a quarter noise of ±3 %; the earlier cycle's plan differs by another ±5 %.
 */
export async function seedMarketingPlans(db: Kysely<Database>, seed: number): Promise<void> {
  const { rows } = await sql<{
    client_id: string;
    bu: string;
    pf: string;
    region: string;
    quarter: string;
    revenue: number;
    cost: number;
  }>`
    select client_id, bu, pf, region, to_char(week_start, 'YYYY-"Q"Q') as quarter,
      sum(final_pln_rev_dlrs)::float8 as revenue, sum(final_bk_pln_cost)::float8 as cost
    from demand_week_totals group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`.execute(db);
  const { rows: cycles } = await sql<{ client_id: string; cycle: string }>`
    select client_id, cycle from (
      select client_id, cycle, row_number() over (partition by client_id order by published_at desc, id desc) as n
      from plan_versions) v where n <= 2 order by client_id, n`.execute(db);
  for (const [clientIndex, clientId] of CLIENT_IDS.entries()) {
    const [current, previous] = cycles.filter((c) => c.client_id === clientId).map((c) => c.cycle);
    if (!current) continue;
    const random = createRandom(streamSeed(seed, 2_000_000 + clientIndex));
    const familyBias = new Map<string, number>();
    const values: Array<{
      cycle: string;
      bu: string;
      pf: string;
      region: string;
      quarter: string;
      revenue: number;
      cost: number;
    }> = [];
    for (const row of rows.filter((r) => r.client_id === clientId)) {
      const family = `${row.bu}\u0000${row.pf}`;
      if (!familyBias.has(family)) familyBias.set(family, random.between(-0.04, 0.12));
      const factor = 1 + familyBias.get(family)! + random.between(-0.03, 0.03);
      const earlier = factor * (1 + random.between(-0.05, 0.05));
      const base = { bu: row.bu, pf: row.pf, region: row.region, quarter: row.quarter };
      values.push({
        ...base,
        cycle: current,
        revenue: roundToCents(row.revenue * factor),
        cost: roundToCents(row.cost * factor),
      });
      if (previous) {
        values.push({
          ...base,
          cycle: previous,
          revenue: roundToCents(row.revenue * earlier),
          cost: roundToCents(row.cost * earlier),
        });
      }
    }
    for (let start = 0; start < values.length; start += 1000) {
      await db
        .insertInto('marketing_plans')
        .values(values.slice(start, start + 1000).map((v) => ({ ...v, client_id: clientId })))
        .execute();
    }
  }
}
