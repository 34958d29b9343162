import type { ClientId, DemandCell, DemandSource, Granularity, NetworkData } from '@ps/domain';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type {
  Database,
  NetworkAuditTable,
  NetworkDcsTable,
  NetworkLanesTable,
  OptimisationRunsTable,
  OptimisationScenariosTable,
} from '../../db/schema';

export type RunRow = Selectable<OptimisationRunsTable>;
export type ScenarioRow = Selectable<OptimisationScenariosTable>;
export type DcRow = Selectable<NetworkDcsTable>;

/** The whole network in one read: a few dozen rows for the demo, a few thousand for a large one. */
export async function loadNetwork(db: Kysely<Database>): Promise<NetworkData> {
  const [plants, families, dcs, lanes, settings, regions] = await Promise.all([
    db.selectFrom('network_plants').selectAll().orderBy('id').execute(),
    db.selectFrom('network_plant_families').selectAll().orderBy('plant_id').orderBy('family').execute(),
    db.selectFrom('network_dcs').selectAll().orderBy('id').execute(),
    db.selectFrom('network_lanes').selectAll().orderBy('id').execute(),
    db.selectFrom('network_settings').selectAll().where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('products').select('region').distinct().orderBy('region').execute(),
  ]);
  const familyNames = await db.selectFrom('products').select('pf').distinct().orderBy('pf').execute();
  return {
    plants: plants.map((plant) => ({
      id: plant.id,
      name: plant.name,
      region: plant.region,
      families: families
        .filter((f) => f.plant_id === plant.id)
        .map((f) => ({ family: f.family, capacityPerMonth: f.capacity_per_month, unitCost: f.unit_cost })),
    })),
    dcs: dcs.map((dc) => ({
      id: dc.id,
      name: dc.name,
      region: dc.region,
      throughputPerMonth: dc.throughput_per_month,
      fixedCostPerMonth: dc.fixed_cost_per_month,
      handlingCostPerUnit: dc.handling_cost_per_unit,
      decision: dc.decision,
    })),
    inboundLanes: lanes
      .filter((lane) => lane.leg === 'inbound' && lane.plant_id !== null)
      .map((lane) => ({
        id: lane.id,
        plantId: lane.plant_id!,
        dcId: lane.dc_id,
        costPerUnit: lane.cost_per_unit,
        leadTimeDays: lane.lead_time_days,
      })),
    outboundLanes: lanes
      .filter((lane) => lane.leg === 'outbound' && lane.region !== null)
      .map((lane) => ({
        id: lane.id,
        dcId: lane.dc_id,
        region: lane.region!,
        costPerUnit: lane.cost_per_unit,
        leadTimeDays: lane.lead_time_days,
      })),
    unmetPenaltyPerUnit: settings?.unmet_penalty_per_unit ?? null,
    regions: regions.map((r) => r.region),
    families: familyNames.map((f) => f.pf),
  };
}

const DEMAND_COLUMN = {
  final: sql.ref('r.final_pln_units'),
  p1: sql.ref('r.p1_pub_pln_units'),
  p2: sql.ref('r.p2_pub_pln_units'),
} as const;

const PERIOD_FORMAT = { month: 'YYYY-MM', quarter: 'YYYY-"Q"Q' } as const;

/**
 * The plan's units by customer region, product family and period for the caller's clients. A
 * week counts in the month or quarter of its Sunday, as in the planning grid.
 */
export async function loadDemand(
  db: Kysely<Database>,
  request: {
    clientIds: readonly ClientId[];
    from: string;
    to: string;
    granularity: Granularity;
    source: DemandSource;
  },
): Promise<DemandCell[]> {
  const { rows } = await sql<{ region: string; family: string; period: string; units: number }>`
    select p.region, p.pf as family, to_char(r.week_start, ${PERIOD_FORMAT[request.granularity]}) as period,
      coalesce(sum(${DEMAND_COLUMN[request.source]}), 0)::float8 as units
    from demand_records r join products p on p.pid = r.pid
    where p.client_id = any(${[...request.clientIds]}::text[])
      and r.week_start >= ${request.from}::date and r.week_start < ${request.to}::date
    group by 1, 2, 3
    order by 1, 2, 3`.execute(db);
  return rows;
}

export async function findDc(db: Kysely<Database>, id: number): Promise<DcRow | undefined> {
  return db.selectFrom('network_dcs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function plantExists(db: Kysely<Database>, id: number): Promise<boolean> {
  const row = await db.selectFrom('network_plants').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function plantFamilies(
  db: Kysely<Database>,
  plantId: number,
): Promise<Array<{ family: string; capacity_per_month: number; unit_cost: number }>> {
  return db
    .selectFrom('network_plant_families')
    .select(['family', 'capacity_per_month', 'unit_cost'])
    .where('plant_id', '=', plantId)
    .forUpdate()
    .execute();
}

export async function upsertPlantFamily(
  db: Kysely<Database>,
  row: { plant_id: number; family: string; capacity_per_month: number; unit_cost: number },
): Promise<void> {
  await db
    .insertInto('network_plant_families')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['plant_id', 'family']).doUpdateSet({
        capacity_per_month: row.capacity_per_month,
        unit_cost: row.unit_cost,
      }),
    )
    .execute();
}

export async function updateDc(
  db: Kysely<Database>,
  id: number,
  values: Partial<
    Pick<DcRow, 'throughput_per_month' | 'fixed_cost_per_month' | 'handling_cost_per_unit' | 'decision'>
  >,
): Promise<void> {
  await db.updateTable('network_dcs').set(values).where('id', '=', id).execute();
}

export async function findLane(
  db: Kysely<Database>,
  id: number,
): Promise<Selectable<NetworkLanesTable> | undefined> {
  return db.selectFrom('network_lanes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateLane(
  db: Kysely<Database>,
  id: number,
  values: { cost_per_unit?: number; lead_time_days?: number },
): Promise<void> {
  await db.updateTable('network_lanes').set(values).where('id', '=', id).execute();
}

export async function readPenalty(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('network_settings')
    .select('unmet_penalty_per_unit')
    .where('id', '=', 1)
    .forUpdate()
    .executeTakeFirst();
  return row?.unmet_penalty_per_unit ?? null;
}

export async function writePenalty(db: Kysely<Database>, penalty: number | null): Promise<void> {
  await db
    .insertInto('network_settings')
    .values({ id: 1, unmet_penalty_per_unit: penalty })
    .onConflict((oc) => oc.column('id').doUpdateSet({ unmet_penalty_per_unit: penalty }))
    .execute();
}

/** Inserts a plant or DC; null when the name is taken (names are unique). */
export async function insertPlant(
  db: Kysely<Database>,
  plant: { name: string; region: string },
): Promise<number | null> {
  const row = await db
    .insertInto('network_plants')
    .values(plant)
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertDc(
  db: Kysely<Database>,
  dc: Insertable<NetworkDcsTable>,
): Promise<number | null> {
  const row = await db
    .insertInto('network_dcs')
    .values(dc)
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Inserts a lane; null when the same plant → DC or DC → region lane exists already. */
export async function insertLane(
  db: Kysely<Database>,
  lane: Insertable<NetworkLanesTable>,
): Promise<number | null> {
  const row = await db
    .insertInto('network_lanes')
    .values(lane)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A plant or DC, locked for its deletion. */
export async function findNode(
  db: Kysely<Database>,
  kind: 'plant' | 'dc',
  id: number,
): Promise<{ id: number; name: string } | undefined> {
  return db
    .selectFrom(kind === 'plant' ? 'network_plants' : 'network_dcs')
    .select(['id', 'name'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function lanesOf(
  db: Kysely<Database>,
  kind: 'plant' | 'dc',
  id: number,
): Promise<Array<Selectable<NetworkLanesTable>>> {
  return db
    .selectFrom('network_lanes')
    .selectAll()
    .where(kind === 'plant' ? 'plant_id' : 'dc_id', '=', id)
    .orderBy('id')
    .execute();
}

/** Saved scenarios with a change naming the plant or DC. */
export async function scenariosNaming(
  db: Kysely<Database>,
  kind: 'plant' | 'dc',
  id: number,
): Promise<string[]> {
  const key = kind === 'plant' ? 'plantId' : 'dcId';
  const { rows } = await sql<{ name: string }>`
    select name from optimisation_scenarios s
    where exists (select 1 from jsonb_array_elements(s.changes) c where (c ->> ${key})::int = ${id})
    order by name`.execute(db);
  return rows.map((r) => r.name);
}

/** Deletes a plant or DC; its lanes and a plant's families go with it (on delete cascade). */
export async function deleteNode(db: Kysely<Database>, kind: 'plant' | 'dc', id: number): Promise<void> {
  await db
    .deleteFrom(kind === 'plant' ? 'network_plants' : 'network_dcs')
    .where('id', '=', id)
    .execute();
}

export async function deleteLane(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('network_lanes').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertAudit(
  db: Kysely<Database>,
  rows: ReadonlyArray<Insertable<NetworkAuditTable>>,
): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('network_audit')
      .values([...rows])
      .execute();
}

export async function listScenarios(db: Kysely<Database>): Promise<ScenarioRow[]> {
  return db.selectFrom('optimisation_scenarios').selectAll().orderBy('id', 'desc').execute();
}

export async function findScenario(db: Kysely<Database>, id: number): Promise<ScenarioRow | undefined> {
  return db.selectFrom('optimisation_scenarios').selectAll().where('id', '=', id).executeTakeFirst();
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === UNIQUE_VIOLATION;

/** Undefined when another scenario has the name. */
export async function insertScenario(
  db: Kysely<Database>,
  scenario: { name: string; changes: unknown; createdBy: string },
): Promise<ScenarioRow | undefined> {
  try {
    return await db
      .insertInto('optimisation_scenarios')
      .values({
        name: scenario.name,
        changes: JSON.stringify(scenario.changes),
        created_by: scenario.createdBy,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** 'missing' when there is no such scenario, 'duplicate' when another one has the name. */
export async function updateScenario(
  db: Kysely<Database>,
  id: number,
  scenario: { name: string; changes: unknown },
): Promise<ScenarioRow | 'missing' | 'duplicate'> {
  try {
    const row = await db
      .updateTable('optimisation_scenarios')
      .set({ name: scenario.name, changes: JSON.stringify(scenario.changes), updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? 'missing';
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

export async function deleteScenario(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('optimisation_scenarios').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Advisory lock class of the solve slots (forecast runs use 7301). */
const SOLVE_SLOT_LOCK_CLASS = 7_302;

/**
 * Stores a new running run if fewer than `maxRunning` solves are running on any server of this
 * database, else answers null. The count and the insert happen under one transaction-level
 * advisory lock, so two processes asking at once cannot both take the last slot. A run still
 * 'running' after `abandonedAfterSeconds` belongs to a server that stopped and holds no slot.
 */
export async function insertRunInSlot(
  db: Kysely<Database>,
  run: { scenarioId: number | null; scenarioName: string | null; requestedBy: string; settings: unknown },
  slots: { maxRunning: number; abandonedAfterSeconds: number },
): Promise<{ row: RunRow; running: number } | { row: null; running: number }> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SOLVE_SLOT_LOCK_CLASS}, 0)`.execute(trx);
    const { running } = await trx
      .selectFrom('optimisation_runs')
      .select((eb) => eb.fn.countAll<number>().as('running'))
      .where('status', '=', 'running')
      .where(sql<boolean>`started_at >= now() - make_interval(secs => ${slots.abandonedAfterSeconds})`)
      .executeTakeFirstOrThrow();
    if (Number(running) >= slots.maxRunning) return { row: null, running: Number(running) };
    const row = await trx
      .insertInto('optimisation_runs')
      .values({
        scenario_id: run.scenarioId,
        scenario_name: run.scenarioName,
        status: 'running',
        requested_by: run.requestedBy,
        settings: JSON.stringify(run.settings),
        progress: JSON.stringify({ seconds: 0, gapPercent: null, objective: null }),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, running: Number(running) + 1 };
  });
}

export async function updateRunProgress(db: Kysely<Database>, id: number, progress: unknown): Promise<void> {
  await db
    .updateTable('optimisation_runs')
    .set({ progress: JSON.stringify(progress) })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

export async function finishRun(
  db: Kysely<Database>,
  id: number,
  outcome: { status: 'succeeded' | 'failed'; result: unknown; error: string | null; progress?: unknown },
): Promise<void> {
  await db
    .updateTable('optimisation_runs')
    .set({
      status: outcome.status,
      result: outcome.result === null ? null : JSON.stringify(outcome.result),
      error: outcome.error,
      finished_at: new Date(),
      ...(outcome.progress === undefined ? {} : { progress: JSON.stringify(outcome.progress) }),
    })
    .where('id', '=', id)
    .execute();
}

/** Listed runs carry no result: a large one's flows run to megabytes. */
export async function listRuns(
  db: Kysely<Database>,
  limit: number,
): Promise<Array<RunRow & { summary: unknown }>> {
  const { rows } = await sql<RunRow & { summary: unknown }>`
    select id, scenario_id, scenario_name, status, requested_by, settings, progress, null as result,
      error, started_at, finished_at,
      case when result is null then null else jsonb_build_object(
        'status', result->'status',
        'totalCost', result->'costs'->'total',
        'servicePercent', result->'servicePercent',
        'openDcs', (select count(*) from jsonb_array_elements(result->'dcs') d where (d->>'isOpen')::boolean),
        'mipGapPercent', result->'mipGapPercent',
        'message', result->'message') end as summary
    from optimisation_runs order by id desc limit ${limit}`.execute(db);
  return rows;
}

export async function findRun(db: Kysely<Database>, id: number): Promise<RunRow | undefined> {
  return db.selectFrom('optimisation_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Runs left 'running' by a server that stopped: on the embedded database every one (no other
 * process can hold it), on PostgreSQL those older than any solve may last.
 */
export async function failAbandonedRuns(
  db: Kysely<Database>,
  olderThanSeconds: number | null,
): Promise<number> {
  const result = await db
    .updateTable('optimisation_runs')
    .set({
      status: 'failed',
      error: 'Interrupted: the server stopped before the solve finished',
      finished_at: new Date(),
    })
    .where('status', '=', 'running')
    .$if(olderThanSeconds !== null, (q) =>
      q.where(sql<boolean>`started_at < now() - make_interval(secs => ${olderThanSeconds})`),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
