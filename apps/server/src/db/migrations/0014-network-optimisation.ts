import { sql, type Kysely } from 'kysely';

/**
 * Network optimisation (docs/optimisation.md): the supply network (plants with capacity
 * and cost per product family, distribution centres, lanes, the unmet-demand penalty), its edit
 * trail, saved scenarios and solve runs with their stored results. The network is the company's
 * own, shared by every client's demand: the module is admin-only (spec §2 route table).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table network_plants (
      id serial primary key,
      name text not null unique,
      region text not null
    )`.execute(db);
  await sql`
    create table network_plant_families (
      plant_id integer not null references network_plants(id) on delete cascade,
      family text not null,
      capacity_per_month numeric(14, 2) not null check (capacity_per_month >= 0),
      unit_cost numeric(12, 4) not null check (unit_cost >= 0),
      primary key (plant_id, family)
    )`.execute(db);
  await sql`
    create table network_dcs (
      id serial primary key,
      name text not null unique,
      region text not null,
      throughput_per_month numeric(14, 2) not null check (throughput_per_month >= 0),
      fixed_cost_per_month numeric(14, 2) not null check (fixed_cost_per_month >= 0),
      handling_cost_per_unit numeric(12, 4) not null check (handling_cost_per_unit >= 0),
      decision text not null default 'auto' check (decision in ('auto', 'open', 'closed'))
    )`.execute(db);
  // A lane is plant → DC (inbound) or DC → customer region (outbound); one of each pair per leg.
  await sql`
    create table network_lanes (
      id serial primary key,
      leg text not null check (leg in ('inbound', 'outbound')),
      plant_id integer references network_plants(id) on delete cascade,
      dc_id integer not null references network_dcs(id) on delete cascade,
      region text,
      cost_per_unit numeric(12, 4) not null check (cost_per_unit >= 0),
      lead_time_days integer not null check (lead_time_days >= 0),
      check ((leg = 'inbound' and plant_id is not null and region is null)
          or (leg = 'outbound' and plant_id is null and region is not null))
    )`.execute(db);
  await sql`create unique index network_lanes_inbound on network_lanes (plant_id, dc_id) where leg = 'inbound'`.execute(
    db,
  );
  await sql`create unique index network_lanes_outbound on network_lanes (dc_id, region) where leg = 'outbound'`.execute(
    db,
  );
  // One row: null penalty means every unit must be served.
  await sql`
    create table network_settings (
      id integer primary key check (id = 1),
      unmet_penalty_per_unit numeric(12, 4) check (unmet_penalty_per_unit >= 0)
    )`.execute(db);
  await sql`
    create table network_audit (
      id serial primary key,
      entity text not null,
      entity_id integer not null,
      field text not null,
      old_value text,
      new_value text,
      changed_by text not null,
      changed_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table optimisation_scenarios (
      id serial primary key,
      name text not null unique,
      changes jsonb not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table optimisation_runs (
      id serial primary key,
      scenario_id integer references optimisation_scenarios(id) on delete set null,
      scenario_name text,
      status text not null check (status in ('running', 'succeeded', 'failed')),
      requested_by text not null,
      settings jsonb not null,
      progress jsonb not null default '{}'::jsonb,
      result jsonb,
      error text,
      started_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'optimisation_runs',
    'optimisation_scenarios',
    'network_audit',
    'network_settings',
    'network_lanes',
    'network_dcs',
    'network_plant_families',
    'network_plants',
  ]) {
    await sql`drop table if exists ${sql.id(table)}`.execute(db);
  }
}
