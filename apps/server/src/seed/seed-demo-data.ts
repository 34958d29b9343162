import {
  addWeeks,
  CLIENT_IDS,
  DEMAND_RECORD_FIELDS,
  roundToCents,
  toIsoDate,
  weekKey,
  weekStartSunday,
  type QuarterTotals,
} from '@ps/domain';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { AuditLogTable, Database, DemandRecordsTable } from '../db/schema';
import { AUDIT_LOG_COLUMNS } from '../db/audit-log';
import { openBulkLoader, type ColumnSpec } from '../db/bulk';
import { RECORD_KEY_COLUMNS, recordColumnSpecs } from '../db/demand-record-row';
import {
  generateProductWeeks,
  HISTORY_WEEKS,
  planDemoProducts,
  windowOf,
  type DemoOptions,
} from './generate-demo-data';
import {
  arrayLiteral,
  demoSnapshots,
  insertSnapshots,
  seedMarketingPlans,
  summariseSnapshots,
  type DemoSnapshot,
} from './demo-control-tower';
import { createRandom, streamSeed } from './random';
import { seedDemoNetwork } from './demo-network';
import { seedInventory } from './seed-inventory';
import { markExceptionsSeen } from '../modules/control-tower';
import { keepLatestFiguresFromP1 } from '../modules/plan-cycles';

export type SeedOptions = Partial<DemoOptions> & { log?: (message: string) => void };
export type SeedSummary = { products: number; records: number; historyRows: number; seconds: number };

export const DEFAULT_SEED = 20_250_101;

/**
 * The demo's window: `weeks` when given (small test sizes, half of it ahead), else two and a half
 * years of weeks with actuals plus the whole plan horizon, as a fresh install shows.
 */
export function demoWindow(
  weeks: number | undefined,
  horizonWeeks: number,
): { weeks: number; futureWeeks?: number } {
  return weeks === undefined ? { weeks: HISTORY_WEEKS + horizonWeeks, futureWeeks: horizonWeeks } : { weeks };
}

/** Every stored field of a record but the generated version, after the key. */
const RECORD_COLUMNS: ReadonlyArray<ColumnSpec<Insertable<DemandRecordsTable>>> = [
  ...RECORD_KEY_COLUMNS,
  ...recordColumnSpecs(
    DEMAND_RECORD_FIELDS.filter(
      (s) => s.table === 'demand_records' && s.column !== 'pid' && s.kind !== 'version',
    ).map((s) => s.field),
  ),
];

const HISTORY_COLUMNS: ReadonlyArray<ColumnSpec<{ pid: string; week_start: string; units: number }>> = [
  { name: 'pid', type: 'text' },
  { name: 'week_start', type: 'date' },
  { name: 'units', type: 'float8' },
];

/** The seed's audit rows carry the times their changes were made. */
const AUDIT_COLUMNS: ReadonlyArray<ColumnSpec<Insertable<AuditLogTable>>> = [
  ...AUDIT_LOG_COLUMNS,
  { name: 'changed_at', type: 'timestamptz' },
];

/** Rows per insert statement: large enough to amortise round trips, small enough to bound memory. */
const FLUSH_ROWS = 20_000;

const SNAPSHOT_COLUMNS: ReadonlyArray<ColumnSpec<Record<string, string | number | null>>> = [
  { name: 'pid', type: 'text' },
  { name: 'snapshot_week', type: 'date' },
  { name: 'source', type: 'text' },
  { name: 'reason_code', type: 'text' },
  { name: 'naive_units', type: 'float8' },
  { name: 'stat_units', type: 'text' },
  { name: 'prelim_units', type: 'text' },
  { name: 'final_units', type: 'text' },
];

/** A snapshot as COPY writes it: its arrays as array literals. */
const snapshotRow = (s: DemoSnapshot): Record<string, string | number | null> => ({
  pid: s.pid,
  snapshot_week: s.snapshot_week,
  source: 'history',
  reason_code: s.reason_code,
  naive_units: s.naive_units,
  stat_units: arrayLiteral(s.stat_units),
  prelim_units: arrayLiteral(s.prelim_units),
  final_units: arrayLiteral(s.final_units),
});

/** The tables a seed fills by the million. */
const BULK_TABLES: ReadonlyArray<keyof Database> = ['demand_records', 'sales_history', 'forecast_snapshots'];

/**
 * Drops the indexes of those of `tables` that are empty and that back no constraint, and answers
 * the statements that create them again.
 */
async function dropSecondaryIndexes(
  db: Kysely<Database>,
  tables: ReadonlyArray<keyof Database>,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const table of tables) {
    const { rows: any } = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
    if (any.length > 0) continue;
    const { rows } = await sql<{ name: string; definition: string }>`
      select quote_ident(i.indexname) as name, i.indexdef as definition from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = ${table}
        and not exists (select 1 from pg_constraint k
          where k.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`.execute(
      db,
    );
    for (const index of rows) {
      await sql.raw(`drop index ${index.name}`).execute(db);
      dropped.push(index.definition);
    }
  }
  return dropped;
}

/**
 * Writes the demo data set: products, sales history, demand records with overrides and published
 * plans, the audit trail of those overrides and ten quarterly plan versions per client.
 * Streams product by product, so 20,000 products × 156 weeks never sit in memory at once.
 * All or nothing: in the caller's transaction, else in one of its own, so a seed stopped midway
 * (kill -9 included) leaves neither half the data nor the indexes it drops for the load.
 */
export async function seedDemoData(db: Kysely<Database>, options: SeedOptions = {}): Promise<SeedSummary> {
  if (db.isTransaction) return seedInTransaction(db, options);
  return db.transaction().execute(async (trx) => {
    // A one-off job that may run for minutes at large sizes, as the start-up seed does.
    await sql`set local statement_timeout = 0`.execute(trx);
    return seedInTransaction(trx, options);
  });
}

async function seedInTransaction(db: Kysely<Database>, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const demo: DemoOptions = {
    products: options.products ?? 700,
    weeks: options.weeks ?? 52,
    futureWeeks: options.futureWeeks,
    historyWeeks: options.historyWeeks,
    seed: options.seed ?? DEFAULT_SEED,
    anchor: weekStartSunday(options.anchor ?? new Date()),
  };
  const log = options.log ?? (() => undefined);
  const products = planDemoProducts(demo);
  for (let start = 0; start < products.length; start += 1000) {
    await db
      .insertInto('products')
      .values(products.slice(start, start + 1000).map(({ shape: _shape, ...product }) => product))
      .execute();
  }

  let records: Array<Insertable<DemandRecordsTable>> = [];
  let history: Array<{ pid: string; week_start: string; units: number }> = [];
  let audit: Array<Insertable<AuditLogTable>> = [];
  let snapshots: DemoSnapshot[] = [];
  const windowStart = windowOf(demo).first;
  let recordCount = 0;
  let historyCount = 0;
  const loader = await openBulkLoader(db);
  const writeSnapshots = (rows: readonly DemoSnapshot[]): Promise<void> =>
    loader.usesCopy
      ? loader.load('forecast_snapshots', SNAPSHOT_COLUMNS, rows.map(snapshotRow))
      : insertSnapshots(db, rows);
  // One batch is written while the next is generated: the server parses and indexes rows while
  // this process computes the next ones, instead of each side waiting for the other.
  let writing: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    const batch = { records, history, audit, snapshots };
    recordCount += records.length;
    historyCount += history.length;
    records = [];
    history = [];
    audit = [];
    snapshots = [];
    await writing;
    writing = (async () => {
      await loader.load('demand_records', RECORD_COLUMNS, batch.records);
      await loader.load('sales_history', HISTORY_COLUMNS, batch.history);
      await loader.load('audit_log', AUDIT_COLUMNS, batch.audit);
      await writeSnapshots(batch.snapshots);
    })();
    // Awaited at the next flush; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
  };
  let lastLogged = 0;
  // The roll-up totals (migration 0002) are rebuilt once after the load instead of by the insert
  // trigger statement by statement: about five times faster on 20,000 × 156. The rebuild reads
  // every record, so rows anyone else inserts meanwhile are counted too.
  await sql`alter table demand_records disable trigger demand_week_totals_insert`.execute(db);
  // Likewise the accuracy sums (migration 0018), summed once the snapshots are in too.
  await sql`alter table demand_records disable trigger accuracy_note_insert`.execute(db);
  // Likewise the products' sort extremes (migration 0032).
  await sql`alter table demand_records disable trigger demand_product_extremes_insert`.execute(db);
  // And the overridden records' keys (migration 0039).
  await sql`alter table demand_records disable trigger demand_overridden_records_insert`.execute(db);
  // Secondary indexes of the big tables are built once after a COPY load: one sort per index
  // instead of a b-tree insert per row. Only when the tables start empty (a fresh or reset database).
  const rebuilt = loader.usesCopy ? await dropSecondaryIndexes(db, BULK_TABLES) : [];
  try {
    for (const [index, product] of products.entries()) {
      const weeks = generateProductWeeks(product, index, demo);
      records.push(...weeks.records);
      history.push(...weeks.history);
      audit.push(...weeks.audit);
      snapshots.push(
        ...demoSnapshots(
          product,
          index,
          demo,
          weeks.history.map((h) => h.units),
          windowStart,
          PAST_CYCLES,
        ),
      );
      if (records.length + history.length >= FLUSH_ROWS) await flush();
      // Lets the batch being written reach the server while the next one is generated.
      else if (loader.usesCopy && index % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
      const percent = Math.floor(((index + 1) / products.length) * 100);
      if (percent >= lastLogged + 10) {
        lastLogged = percent;
        log(`Seeding demo data: ${percent}% (${index + 1} of ${products.length} products)`);
      }
    }
    await flush();
    await writing;
  } finally {
    await writing.catch(() => undefined);
    await sql`alter table demand_records enable trigger demand_week_totals_insert`.execute(db);
    await sql`alter table demand_records enable trigger accuracy_note_insert`.execute(db);
    await sql`alter table demand_records enable trigger demand_product_extremes_insert`.execute(db);
    await sql`alter table demand_records enable trigger demand_overridden_records_insert`.execute(db);
  }
  for (const definition of rebuilt) await sql.raw(definition).execute(db);
  log(`Loaded the records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await sql`select rebuild_demand_totals()`.execute(db);
  await sql`select refresh_product_extremes(array(select pid from demand_product_totals))`.execute(db);
  await sql`select rebuild_demand_overridden_records()`.execute(db);
  await summariseSnapshots(db);
  await recordPublishedVersions(db, demo.anchor, demo.seed);
  // The plan sent out starts from the latest cycle's figures, the records' P1.
  await keepLatestFiguresFromP1(db);
  // The plan is rolled to the anchor's week: the roll adds weeks once the clock's week moves on.
  await db
    .insertInto('plan_horizon')
    .values({
      last_rolled_week: toIsoDate(demo.anchor),
      horizon_weeks: windowOf(demo).futureWeeks,
    })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({
        last_rolled_week: toIsoDate(demo.anchor),
        horizon_weeks: windowOf(demo).futureWeeks,
      }),
    )
    .execute();
  await seedDemoNetwork(db);
  await seedInventory(db, products, demo);
  await seedMarketingPlans(db, demo.seed);
  // The demo's exception queue counts as seen: the first run or publish reports what is new since.
  await markExceptionsSeen(db, CLIENT_IDS);
  // Fresh statistics so the planner picks index plans for the large tables right away. Only this
  // schema's tables: a bare `analyze` walks every schema of a shared database.
  const tables = await sql<{
    name: string;
  }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db);
  await sql`analyze ${sql.join(tables.rows.map((table) => sql.id(table.name)))}`.execute(db);
  const seconds = (performance.now() - started) / 1000;
  log(
    `Seeded ${products.length} products, ${recordCount} demand records, ${historyCount} history rows in ${seconds.toFixed(1)} s`,
  );
  return { products: products.length, records: recordCount, historyRows: historyCount, seconds };
}

/** Quarterly publishes: the latest (P1) two weeks before the anchor, then one every 13 weeks. */
const CYCLE_WEEKS = 13;
export const PAST_CYCLES = 10;

/**
 * The plan versions of ten quarterly cycles per client. The latest two carry the totals of the
 * records' P1 and P2 columns (so the dashboard and the grid agree); each older one is the cycle
 * after it, moved by a deterministic drift of up to ±6 % per quarter, as plans move cycle to cycle.
 */
async function recordPublishedVersions(db: Kysely<Database>, anchor: Date, seed: number): Promise<void> {
  const { rows } = await sql<{
    client_id: string;
    quarter: string;
    count: number;
    p1_units: number;
    p1_cost: number;
    p1_revenue: number;
    p2_units: number;
    p2_cost: number;
    p2_revenue: number;
  }>`
    select p.client_id, to_char(r.week_start, 'YYYY-"Q"Q') as quarter, count(*)::int as count,
      coalesce(sum(r.p1_pub_pln_units), 0) as p1_units, coalesce(sum(r.p1_pub_pln_cost), 0) as p1_cost,
      coalesce(sum(r.p1_pub_pln_rev_dlrs), 0) as p1_revenue,
      coalesce(sum(r.p2_pub_pln_units), 0) as p2_units, coalesce(sum(r.p2_pub_pln_cost), 0) as p2_cost,
      coalesce(sum(r.p2_pub_pln_rev_dlrs), 0) as p2_revenue
    from demand_records r join products p on p.pid = r.pid
    group by 1, 2 order by 1, 2`.execute(db);
  for (const [clientIndex, clientId] of CLIENT_IDS.entries()) {
    const quarters = rows.filter((row) => row.client_id === clientId);
    if (quarters.length === 0) continue;
    const recordCount = quarters.reduce((sum, q) => sum + q.count, 0);
    const random = createRandom(streamSeed(seed, 1_000_000 + clientIndex));
    let totals: QuarterTotals[] = quarters.map((q) => ({
      quarter: q.quarter,
      units: q.p1_units,
      cost: q.p1_cost,
      revenue: q.p1_revenue,
    }));
    for (let k = 0; k < PAST_CYCLES; k += 1) {
      if (k === 1) {
        totals = quarters.map((q) => ({
          quarter: q.quarter,
          units: q.p2_units,
          cost: q.p2_cost,
          revenue: q.p2_revenue,
        }));
      } else if (k > 1) {
        totals = totals.map((q) => {
          const drift = 1 + random.between(-0.06, 0.06);
          return {
            quarter: q.quarter,
            units: Math.round(q.units * drift),
            cost: roundToCents(q.cost * drift),
            revenue: roundToCents(q.revenue * drift),
          };
        });
      }
      const publishedAt = addWeeks(anchor, -(2 + CYCLE_WEEKS * k));
      const cycle = weekKey(publishedAt);
      await db
        .insertInto('plan_versions')
        .values({
          client_id: clientId,
          cycle,
          label: `Cycle ${cycle}`,
          published_at: new Date(`${toIsoDate(publishedAt)}T16:00:00Z`),
          published_by: 'Demand Review Board',
          scope: JSON.stringify({}),
          record_count: recordCount,
          final_units: totals.reduce((sum, q) => sum + q.units, 0),
          final_cost: roundToCents(totals.reduce((sum, q) => sum + q.cost, 0)),
          final_revenue: roundToCents(totals.reduce((sum, q) => sum + q.revenue, 0)),
          quarters: JSON.stringify(totals),
        })
        .execute();
    }
  }
}
