import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The demo plants: the catalog's plant sites (demo-catalog.ts), one per region. */
const PLANTS = [
  { name: 'Toronto Plant', region: 'North America', costFactor: 1.05 },
  { name: 'Frankfurt Plant', region: 'EMEA', costFactor: 1.1 },
  { name: 'Shanghai Plant', region: 'APAC', costFactor: 0.82 },
  { name: 'Monterrey Plant', region: 'LATAM', costFactor: 0.9 },
] as const;

/**
 * The demo DCs: the catalog's DC sites. `share` sizes a DC's monthly throughput as a share of its
 * region's peak monthly demand, so two DCs in one region can each serve most, not all, of it.
 */
const DCS = [
  { name: 'Dallas DC', region: 'North America', share: 0.75, handling: 0.85 },
  { name: 'Atlanta DC', region: 'North America', share: 0.7, handling: 0.95 },
  { name: 'Rotterdam DC', region: 'EMEA', share: 0.8, handling: 0.9 },
  { name: 'Milan DC', region: 'EMEA', share: 0.55, handling: 1.1 },
  { name: 'Singapore DC', region: 'APAC', share: 1.3, handling: 0.7 },
  { name: 'São Paulo DC', region: 'LATAM', share: 1.3, handling: 0.8 },
] as const;

const REGIONS = ['North America', 'EMEA', 'APAC', 'LATAM'] as const;
type Region = (typeof REGIONS)[number];

/** Dollars per unit to move a unit between regions by sea or road, and the days it takes. */
const TRANSPORT: Record<Region, Record<Region, { cost: number; days: number }>> = {
  'North America': {
    'North America': { cost: 0.9, days: 3 },
    EMEA: { cost: 4.2, days: 18 },
    APAC: { cost: 5.1, days: 28 },
    LATAM: { cost: 2.4, days: 9 },
  },
  EMEA: {
    'North America': { cost: 4.2, days: 18 },
    EMEA: { cost: 0.8, days: 3 },
    APAC: { cost: 4.6, days: 30 },
    LATAM: { cost: 4.4, days: 21 },
  },
  APAC: {
    'North America': { cost: 5.1, days: 28 },
    EMEA: { cost: 4.6, days: 30 },
    APAC: { cost: 0.7, days: 4 },
    LATAM: { cost: 6.0, days: 35 },
  },
  LATAM: {
    'North America': { cost: 2.4, days: 9 },
    EMEA: { cost: 4.4, days: 21 },
    APAC: { cost: 6.0, days: 35 },
    LATAM: { cost: 1.0, days: 4 },
  },
};

/** Last-mile delivery costs more per unit than trunk transport between plant and DC. */
const OUTBOUND_FACTOR = 1.25;
/** A DC's monthly fixed cost per unit of monthly throughput capacity (rent, staff, systems). */
const FIXED_COST_PER_CAPACITY_UNIT = 1.1;
/** Each family is made at two plants whose joint capacity is this multiple of its peak month. */
const CAPACITY_HEADROOM = 1.25;

const round = (value: number, digits: number): number => Number(value.toFixed(digits));
const isRegion = (region: string): region is Region => (REGIONS as readonly string[]).includes(region);

/**
 * The demo supply network, sized from the seeded plan so that it fits any seed size: plants make
 * each product family at two sites with 1.25 × the family's peak month between them (the lead
 * site 60 %); DCs get throughput from their region's peak month; every plant can ship to every DC
 * and every DC to every region at costs that grow with distance. Deterministic: the same plan
 * gives the same network. Replaces any network already there (npm run seed -- --reset).
 */
export async function seedDemoNetwork(db: Kysely<Database>): Promise<void> {
  await sql`delete from network_lanes`.execute(db);
  await sql`delete from network_plant_families`.execute(db);
  await sql`delete from network_plants`.execute(db);
  await sql`delete from network_dcs`.execute(db);
  await sql`delete from network_settings`.execute(db);

  const { rows: families } = await sql<{ family: string; peak: number; unit_cost: number }>`
    with monthly as (
      select p.pf as family, date_trunc('month', r.week_start) as month,
        sum(coalesce(r.final_pln_units, 0)) as units
      from demand_records r join products p on p.pid = r.pid
      group by 1, 2)
    select m.family, max(m.units)::float8 as peak,
      (select avg(p.unit_cost) from products p where p.pf = m.family)::float8 as unit_cost
    from monthly m group by m.family order by m.family`.execute(db);
  const { rows: regions } = await sql<{ region: string; peak: number }>`
    with monthly as (
      select p.region, date_trunc('month', r.week_start) as month,
        sum(coalesce(r.final_pln_units, 0)) as units
      from demand_records r join products p on p.pid = r.pid
      group by 1, 2)
    select region, max(units)::float8 as peak from monthly group by region order by region`.execute(db);
  const regionPeak = new Map(regions.map((r) => [r.region, r.peak]));

  const plants = await db
    .insertInto('network_plants')
    .values(PLANTS.map(({ name, region }) => ({ name, region })))
    .returning(['id', 'name', 'region'])
    .execute();
  const plantRows = families.flatMap((family, index) => {
    const lead = PLANTS[index % PLANTS.length]!;
    const second = PLANTS[(index + 1) % PLANTS.length]!;
    const capacity = family.peak * CAPACITY_HEADROOM;
    return [
      { plant: lead, share: 0.6 },
      { plant: second, share: 0.4 },
    ].map(({ plant, share }) => ({
      plant_id: plants.find((p) => p.name === plant.name)!.id,
      family: family.family,
      capacity_per_month: Math.ceil(capacity * share),
      unit_cost: round(family.unit_cost * plant.costFactor, 4),
    }));
  });
  if (plantRows.length > 0) await db.insertInto('network_plant_families').values(plantRows).execute();

  const dcs = await db
    .insertInto('network_dcs')
    .values(
      DCS.map((dc) => {
        const throughput = Math.ceil((regionPeak.get(dc.region) ?? 0) * dc.share);
        return {
          name: dc.name,
          region: dc.region,
          throughput_per_month: throughput,
          fixed_cost_per_month: round(throughput * FIXED_COST_PER_CAPACITY_UNIT, 2),
          handling_cost_per_unit: dc.handling,
        };
      }),
    )
    .returning(['id', 'name', 'region'])
    .execute();

  const lanes = [
    ...plants.flatMap((plant) =>
      dcs.map((dc) => {
        const leg =
          isRegion(plant.region) && isRegion(dc.region) ? TRANSPORT[plant.region][dc.region] : undefined;
        return {
          leg: 'inbound' as const,
          plant_id: plant.id,
          dc_id: dc.id,
          region: null,
          cost_per_unit: leg?.cost ?? 5,
          lead_time_days: leg?.days ?? 30,
        };
      }),
    ),
    ...dcs.flatMap((dc) =>
      REGIONS.map((region) => {
        const leg = isRegion(dc.region) ? TRANSPORT[dc.region][region] : undefined;
        return {
          leg: 'outbound' as const,
          plant_id: null,
          dc_id: dc.id,
          region,
          cost_per_unit: round((leg?.cost ?? 5) * OUTBOUND_FACTOR, 4),
          lead_time_days: Math.max(1, Math.round((leg?.days ?? 30) / 2)),
        };
      }),
    ),
  ];
  await db.insertInto('network_lanes').values(lanes).execute();

  // Unserved demand costs more than serving the dearest family from the farthest plant.
  const dearest = Math.max(0, ...families.map((f) => f.unit_cost));
  await db
    .insertInto('network_settings')
    .values({ id: 1, unmet_penalty_per_unit: Math.ceil((dearest * 2 + 20) / 10) * 10 })
    .execute();
}
