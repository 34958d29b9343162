import {
  addWeeks,
  CLIENT_IDS,
  CUSTOMER_CLIENT,
  INTERNAL_CLIENT,
  REASON_CODES,
  moneyOf,
  roundToCents,
  toIsoDate,
  type ClientId,
} from '@ps/domain';
import type { Insertable } from 'kysely';
import type { AuditLogTable, DemandRecordsTable, ProductsTable } from '../db/schema';
import { EDITABLE_COLUMNS, planColumns } from '../db/demand-record-row';
import { CATALOG, OVERRIDE_NOTES, PLANNERS, REGIONS } from './demo-catalog';
import { createRandom, streamSeed, type Random } from './random';

export type DemoOptions = {
  products: number;
  /** Weeks of demand records per product: the planning window. */
  weeks: number;
  /**
   * Of those, the weeks from the anchor on (the plan horizon). Unset: half the window, at most
   * MAX_FUTURE_WEEKS, as the tests' small seeds use.
   */
  futureWeeks?: number | undefined;
  /**
   * Weeks of sales history before the anchor (the forecaster's input), at least the window's past
   * weeks. Unset: HISTORY_WEEKS.
   */
  historyWeeks?: number | undefined;
  seed: number;
  /** Sunday of the current week: weeks before it have actuals, it and later are the future. */
  anchor: Date;
};

/** Without futureWeeks, at most half a year of the window lies in the future; the rest holds actuals. */
export const MAX_FUTURE_WEEKS = 26;
/** Two and a half years of weekly sales history before the current week, for the forecaster. */
export const HISTORY_WEEKS = 130;
const WEEKS_PER_YEAR = 52.18;

export type DemoProduct = Omit<ProductsTable, 'created_at'> & {
  /** Demand shape, kept to generate the product's weeks. */
  shape: DemandShape;
};

type DemandShape = {
  level: number;
  yearlyGrowth: number;
  seasonalAmplitude: number;
  seasonalPhase: number;
  noise: number;
  /** Chance of demand in a week; 1 for smooth items, lower for intermittent ones. */
  demandChance: number;
  promoChance: number;
};

export type DemoProductWeeks = {
  history: Array<{ pid: string; week_start: string; units: number }>;
  records: Array<Insertable<DemandRecordsTable>>;
  audit: Array<Insertable<AuditLogTable>>;
};

export function windowOf(options: Pick<DemoOptions, 'weeks' | 'anchor' | 'futureWeeks'>): {
  futureWeeks: number;
  pastWeeks: number;
  first: Date;
} {
  const futureWeeks = Math.min(
    options.weeks,
    options.futureWeeks ?? Math.min(MAX_FUTURE_WEEKS, Math.ceil(options.weeks / 2)),
  );
  const pastWeeks = options.weeks - futureWeeks;
  return { futureWeeks, pastWeeks, first: addWeeks(options.anchor, -pastWeeks) };
}

function clientOf(index: number): ClientId {
  // One product in five belongs to the customer client.
  return index % 5 === 4 ? CUSTOMER_CLIENT : INTERNAL_CLIENT;
}

/** First pass: every product's attributes, with rank and ABC class from expected yearly revenue. */
export function planDemoProducts(options: DemoOptions): DemoProduct[] {
  const products: DemoProduct[] = [];
  const width = Math.max(5, String(options.products).length);
  for (let index = 0; index < options.products; index += 1) {
    const random = createRandom(streamSeed(options.seed, index));
    const clientId = clientOf(index);
    const bu = random.pick(Object.keys(CATALOG[clientId]));
    const pf = random.pick(CATALOG[clientId][bu]!);
    const region = random.pick(Object.keys(REGIONS));
    const site = random.pick(REGIONS[region]!);
    const isIntermittent = random.chance(0.15);
    const unitCost = roundToCents(Math.exp(Math.log(25) + 1.1 * random.normal()) + 0.5);
    const prefix = clientId === CUSTOMER_CLIENT ? 'CIR' : 'PRD';
    products.push({
      pid: `${prefix}-${String(index + 1).padStart(width, '0')}`,
      client_id: clientId,
      bu,
      pf,
      class: 'C',
      region,
      site,
      entity_type: random.chance(0.7) ? 'Manufactured' : 'Purchased',
      unit_cost: unitCost,
      unit_price: roundToCents(unitCost * random.between(1.3, 2.2)),
      rank: null,
      shape: {
        level: isIntermittent ? random.between(2, 12) : Math.exp(Math.log(120) + 1.0 * random.normal()),
        yearlyGrowth: random.normal() * 0.12,
        seasonalAmplitude: random.chance(0.6) ? random.between(0.1, 0.45) : 0,
        seasonalPhase: random.between(0, 2 * Math.PI),
        noise: random.between(0.08, 0.3),
        demandChance: isIntermittent ? random.between(0.15, 0.55) : 1,
        promoChance: isIntermittent ? 0 : random.between(0, 0.05),
      },
    });
  }
  for (const clientId of CLIENT_IDS) {
    const own = products
      .filter((p) => p.client_id === clientId)
      .sort(
        (a, b) =>
          b.shape.level * b.shape.demandChance * b.unit_price -
          a.shape.level * a.shape.demandChance * a.unit_price,
      );
    own.forEach((product, position) => {
      product.rank = position + 1;
      // ABC: the top 20% by revenue are A, the next 30% B, the rest C.
      product.class = position < own.length * 0.2 ? 'A' : position < own.length * 0.5 ? 'B' : 'C';
    });
  }
  return products;
}

function expectedUnits(shape: DemandShape, weekIndex: number, weekOfYear: number): number {
  const growth = Math.pow(1 + shape.yearlyGrowth, weekIndex / WEEKS_PER_YEAR);
  const angle = (2 * Math.PI * weekOfYear) / WEEKS_PER_YEAR + shape.seasonalPhase;
  const season = 1 + shape.seasonalAmplitude * (Math.sin(angle) + 0.35 * Math.sin(2 * angle));
  return Math.max(0, shape.level * growth * season);
}

function drawUnits(shape: DemandShape, mean: number, random: Random, isPromo: boolean): number {
  if (!random.chance(shape.demandChance)) return 0;
  const lift = isPromo ? random.between(1.4, 2.2) : 1;
  return Math.max(
    0,
    Math.round(mean * lift * Math.exp(shape.noise * random.normal() - (shape.noise * shape.noise) / 2)),
  );
}

/**
 * A simple, honest demo forecast until the forecasting engine runs: a blend of the recent level
 * (mean of the last 13 weeks) and the same weeks a year earlier, scaled by the year-on-year level.
 */
export function demoForecast(actuals: readonly number[], origin: number, stepsAhead: number): number {
  const window = (end: number, length: number): number[] => actuals.slice(Math.max(0, end - length), end);
  const mean = (values: number[]): number =>
    values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
  const recent = mean(window(origin, 13));
  const target = origin + stepsAhead - 1;
  if (target - 52 < 2) return roundToCents(recent);
  const lastYearSameWeeks = mean(actuals.slice(target - 54, target - 49));
  const lastYearLevel = mean(window(origin - 52, 13));
  const seasonal = lastYearLevel > 0 ? (lastYearSameWeeks / lastYearLevel) * recent : recent;
  return roundToCents(Math.max(0, 0.5 * recent + 0.5 * seasonal));
}

/** Second pass: one product's sales history and demand records, with overrides and published plans. */
export function generateProductWeeks(
  product: DemoProduct,
  index: number,
  options: DemoOptions,
): DemoProductWeeks {
  const random = createRandom(streamSeed(options.seed ^ 0x5eed, index));
  const { pastWeeks, futureWeeks, first } = windowOf(options);
  const historyWeeks = Math.max(options.historyWeeks ?? HISTORY_WEEKS, pastWeeks);
  const historyStart = addWeeks(options.anchor, -historyWeeks);

  // Actuals for every past week, oldest first; promotions lift a week and dip the next.
  const actuals: number[] = [];
  let afterPromo = false;
  for (let t = 0; t < historyWeeks; t += 1) {
    const week = addWeeks(historyStart, t);
    const weekOfYear = Math.floor(
      (week.getTime() - Date.UTC(week.getUTCFullYear(), 0, 1)) / (7 * 86_400_000),
    );
    const isPromo = random.chance(product.shape.promoChance);
    const mean = expectedUnits(product.shape, t, weekOfYear) * (afterPromo ? 0.85 : 1);
    actuals.push(drawUnits(product.shape, mean, random, isPromo));
    afterPromo = isPromo;
  }
  const history = actuals.map((units, t) => ({
    pid: product.pid,
    week_start: toIsoDate(addWeeks(historyStart, t)),
    units,
  }));

  const records: DemoProductWeeks['records'] = [];
  const audit: DemoProductWeeks['audit'] = [];
  const hasOverrides = random.chance(0.25);
  const overrideFrom = random.int(0, Math.max(0, futureWeeks - 8));
  const overrideTo = overrideFrom + random.int(2, 8);
  const reason = random.pick(REASON_CODES);
  const planner = random.pick(PLANNERS);
  const publishDrift = random.between(-0.06, 0.06);

  for (let w = 0; w < options.weeks; w += 1) {
    const week = addWeeks(first, w);
    const weekStart = toIsoDate(week);
    const t = historyWeeks - pastWeeks + w; // index into actuals for past weeks
    const isPast = w < pastWeeks;
    const origin = isPast ? t : historyWeeks;
    const stepsAhead = isPast ? 1 : w - pastWeeks + 1;
    const ensemble = demoForecast(actuals, origin, stepsAhead);
    const naive = origin > 0 ? actuals[origin - 1]! : 0;
    const futureIndex = w - pastWeeks;
    const isOverridden = hasOverrides && !isPast && futureIndex >= overrideFrom && futureIndex < overrideTo;
    const overrides = {
      rev_pln_ovrd_percent:
        isOverridden && reason !== 'Supply Chain' ? Math.round(random.between(3, 25) * 100) / 100 : null,
      rev_pln_ovrd_units: null,
      sop_pln_ovrd_percent: null,
      sop_pln_ovrd_units:
        isOverridden && reason === 'Supply Chain'
          ? Math.max(0, Math.round(ensemble * random.between(0.6, 0.9)))
          : null,
    };
    const source = { ensemble_fcst_units: ensemble, ...overrides };
    const plan = planColumns(source, product);
    const finalUnits = plan.final_pln_units ?? null;
    const p1Units =
      finalUnits === null
        ? null
        : Math.max(0, Math.round(finalUnits * (1 + publishDrift) * (isOverridden ? 0.93 : 1)));
    const p2Units = p1Units === null ? null : Math.max(0, Math.round(p1Units * (1 + random.normal() * 0.05)));
    const actual = isPast ? actuals[t]! : null;
    const updatedAt = isOverridden
      ? // Up to 19 days before the current week's Sunday: an edit is never dated in the future
        // (the week after the anchor had not happened yet).
        new Date(options.anchor.getTime() + random.between(-18.9, 0) * 86_400_000)
      : null;
    const comments = isOverridden ? random.pick(OVERRIDE_NOTES[reason]!) : null;
    records.push({
      pid: product.pid,
      week_start: weekStart,
      act_bkg_units: actual,
      act_bkg_cost: moneyOf(actual, product.unit_cost),
      act_rev_dlrs: moneyOf(actual, product.unit_price),
      naive_fcst_units: naive,
      ...source,
      ...plan,
      reason_code: isOverridden ? reason : null,
      comments,
      p1_pub_pln_units: p1Units,
      p1_pub_pln_cost: moneyOf(p1Units, product.unit_cost),
      p1_pub_pln_rev_dlrs: moneyOf(p1Units, product.unit_price),
      p2_pub_pln_units: p2Units,
      p2_pub_pln_cost: moneyOf(p2Units, product.unit_cost),
      p2_pub_pln_rev_dlrs: moneyOf(p2Units, product.unit_price),
      last_updated_at: updatedAt,
      last_updated_by: isOverridden ? planner : null,
    });
    if (isOverridden && updatedAt) {
      const changes = Object.entries({ ...overrides, reason_code: reason, comments }).filter(
        ([, value]) => value !== null,
      );
      for (const [column, value] of changes) {
        audit.push({
          client_id: product.client_id,
          pid: product.pid,
          week_start: weekStart,
          field: AUDIT_FIELD_NAMES[column] ?? column,
          old_value: null,
          new_value: String(value),
          changed_by: planner,
          changed_at: updatedAt,
          source: 'edit',
        });
      }
    }
  }
  return { history, records, audit };
}

/** Editable column → its API name, which is what the audit trail records. */
const AUDIT_FIELD_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(EDITABLE_COLUMNS).map(([field, column]) => [column, field]),
);
