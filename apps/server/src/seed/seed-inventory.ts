import {
  addWeeks,
  averageDemandInterval,
  INTERMITTENT_ADI,
  oulLevels,
  recommendedOul,
  simulateOulPolicy,
  toIsoDate,
} from '@ps/domain';
import type { Insertable, Kysely } from 'kysely';
import { insertByUnnest, type ColumnSpec } from '../db/bulk';
import type { Database, InventoryHistoryTable, InventoryParametersTable } from '../db/schema';
import { rebuildInventoryHistoryTotals, recomputeInventory } from '../modules/inventory';
import { REGIONS } from './demo-catalog';
import type { DemoProduct } from './generate-demo-data';
import { createRandom, streamSeed, type Random } from './random';

/** Weeks of simulated stock shown (the metrics' 52-week trends) and the warm-up before them. */
export const INVENTORY_HISTORY_WEEKS = 52;
const WARM_UP_WEEKS = 13;
/** Each product is stocked at three sites: its home site serves half its demand. */
const SITE_SHARES = [0.5, 0.3, 0.2] as const;
const PRODUCTS_PER_BATCH = 500;

const SITES: ReadonlyArray<{ site: string; region: string }> = Object.entries(REGIONS).flatMap(
  ([region, sites]) => sites.map((site) => ({ site, region })),
);

/** The home site, then the other sites of its region, then the sites that follow in the catalogue. */
export function stockingSites(homeSite: string): Array<{ site: string; region: string }> {
  const home = SITES.findIndex((s) => s.site === homeSite);
  const start = home < 0 ? 0 : home;
  const region = SITES[start]!.region;
  const ordered = [
    ...SITES.slice(start),
    ...SITES.slice(0, start).filter((s) => s.region === region),
    ...SITES.slice(0, start).filter((s) => s.region !== region),
  ];
  const sameRegion = ordered.filter((s) => s.region === region);
  const others = ordered.filter((s) => s.region !== region);
  return [...sameRegion, ...others].slice(0, SITE_SHARES.length);
}

/** A site's whole units of a product's week: its share, rounded up with the chance of the fraction. */
function siteUnits(units: number, share: number, random: Random): number {
  const exact = Math.max(0, units) * share;
  const whole = Math.floor(exact);
  return whole + (random.chance(exact - whole) ? 1 : 0);
}

const mean = (values: readonly number[]): number =>
  values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
const sd = (values: readonly number[]): number => {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
};

const PARAMETER_COLUMNS: ReadonlyArray<ColumnSpec<Insertable<InventoryParametersTable>>> = [
  { name: 'pid', type: 'text' },
  { name: 'site', type: 'text' },
  { name: 'region', type: 'text' },
  { name: 'demand_share', type: 'numeric' },
  { name: 'lead_time_weeks', type: 'int4' },
  { name: 'lead_time_sd_weeks', type: 'float8' },
  { name: 'review_period_weeks', type: 'int4' },
  { name: 'replenishment_frequency_weeks', type: 'int4' },
  { name: 'on_hand_units', type: 'int4' },
];
const HISTORY_COLUMNS: ReadonlyArray<ColumnSpec<InventoryHistoryTable>> = [
  { name: 'pid', type: 'text' },
  { name: 'site', type: 'text' },
  { name: 'week_start', type: 'date' },
  { name: 'demand_units', type: 'int4' },
  { name: 'receipts_units', type: 'int4' },
  { name: 'on_hand_units', type: 'int4' },
  { name: 'lost_units', type: 'int4' },
  { name: 'ordered_units', type: 'int4' },
];

/**
 * Inventory parameters per product × site and 52 weeks of simulated stock: each site's share of
 * the product's sales history is served by an order-up-to policy whose level is re-set at each
 * review from the trailing 13 weeks (the class's service level), with lost sales. Then the first
 * recompute fills the demand statistics, OULs and projection from the demand records.
 */
export async function seedInventory(
  db: Kysely<Database>,
  products: readonly DemoProduct[],
  options: { anchor: Date; seed: number },
): Promise<void> {
  const firstWeek = addWeeks(options.anchor, -(INVENTORY_HISTORY_WEEKS + WARM_UP_WEEKS));
  const weekDates = Array.from({ length: INVENTORY_HISTORY_WEEKS + WARM_UP_WEEKS }, (_, w) =>
    toIsoDate(addWeeks(firstWeek, w)),
  );
  const weekIndex = new Map(weekDates.map((week, w) => [week, w]));
  for (let start = 0; start < products.length; start += PRODUCTS_PER_BATCH) {
    const batch = products.slice(start, start + PRODUCTS_PER_BATCH);
    const sales = await db
      .selectFrom('sales_history')
      .select(['pid', 'week_start', 'units'])
      .where(
        'pid',
        'in',
        batch.map((p) => p.pid),
      )
      .where('week_start', '>=', weekDates[0]!)
      .where('week_start', '<', toIsoDate(options.anchor))
      .execute();
    const demandByPid = new Map<string, number[]>();
    for (const row of sales) {
      const w = weekIndex.get(String(row.week_start));
      if (w === undefined) continue;
      const series = demandByPid.get(row.pid) ?? new Array<number>(weekDates.length).fill(0);
      series[w] = row.units;
      demandByPid.set(row.pid, series);
    }
    const parameters: Array<Insertable<InventoryParametersTable>> = [];
    const history: InventoryHistoryTable[] = [];
    batch.forEach((product, offset) => {
      const random = createRandom(streamSeed(options.seed, 3_000_000 + start + offset));
      const productDemand = demandByPid.get(product.pid) ?? new Array<number>(weekDates.length).fill(0);
      stockingSites(product.site).forEach(({ site, region }, s) => {
        const share = SITE_SHARES[s]!;
        const purchased = product.entity_type === 'Purchased';
        const lead = purchased ? random.int(3, 8) : random.int(1, 4);
        // Lead-time spread from a stream of its own, so the rows' other draws stay as they were:
        // suppliers vary more (15–35 % of the lead time) than the company's own plants (5–15 %).
        const leadRandom = createRandom(streamSeed(options.seed, 4_000_000 + (start + offset) * 3 + s));
        const leadSd =
          Math.round(
            lead * (purchased ? leadRandom.between(0.15, 0.35) : leadRandom.between(0.05, 0.15)) * 100,
          ) / 100;
        const review = random.pick([1, 1, 2, 4]);
        const replenishment = review * random.pick([1, 1, 2]);
        const cycle = Math.max(review, replenishment);
        const demand = productDemand.map((units) => siteUnits(units, share, random));
        const oulAt = (week: number): number => {
          const from = Math.max(0, week - 13);
          const trailing = demand.slice(from, Math.max(from + 13, week));
          const recent = demand.slice(Math.max(0, week - 26), Math.max(26, week));
          const avg = mean(trailing);
          const levels = oulLevels({
            avgDemand: avg,
            stdDemand: sd(trailing),
            leadTimeWeeks: lead,
            leadTimeSdWeeks: leadSd,
            reviewPeriodWeeks: cycle,
            intermittent: averageDemandInterval(recent) > INTERMITTENT_ADI || avg < 1,
          });
          return recommendedOul(levels, product.class);
        };
        const weeks = simulateOulPolicy({
          demand,
          oulAt,
          leadTimeWeeks: lead,
          // Each order's own lead time, drawn around the row's mean with its spread.
          leadTimeOf: () => lead + leadSd * leadRandom.normal(),
          reviewPeriodWeeks: cycle,
          initialOnHand: oulAt(0),
        });
        const shown = weeks.slice(WARM_UP_WEEKS);
        parameters.push({
          pid: product.pid,
          site,
          region,
          demand_share: share,
          lead_time_weeks: lead,
          lead_time_sd_weeks: leadSd,
          review_period_weeks: review,
          replenishment_frequency_weeks: replenishment,
          on_hand_units: shown.at(-1)?.onHand ?? 0,
        });
        shown.forEach((week, w) =>
          history.push({
            pid: product.pid,
            site,
            week_start: weekDates[WARM_UP_WEEKS + w]!,
            demand_units: week.demand,
            receipts_units: week.receipts,
            on_hand_units: week.onHand,
            lost_units: week.lost,
            ordered_units: week.ordered,
          }),
        );
      });
    });
    await insertByUnnest(db, 'inventory_parameters', PARAMETER_COLUMNS, parameters);
    for (let h = 0; h < history.length; h += 20_000) {
      await insertByUnnest(db, 'inventory_history', HISTORY_COLUMNS, history.slice(h, h + 20_000));
    }
  }
  await rebuildInventoryHistoryTotals(db);
  await recomputeInventory(db, { asOf: options.anchor });
}
