import { sql, type Kysely } from 'kysely';

/**
 * Lead-time variability: each product × site row gets the standard deviation of its
 * lead time in weeks, used in the order-up-to level's σ_total = √((L+R)·σ_d² + μ_d²·σ_L²)
 * (docs/inventory.md). Rows seeded before this migration get a deterministic value by sourcing: a
 * purchased item's supplier is less reliable (a coefficient of variation of 25 %) than the
 * company's own plants (10 %); the demo generator draws per row around those figures.
 *
 * Also where the S&D projection's supply came from at its last recompute: the network plan of an
 * optimisation run (the latest baseline with a plan) or, without one, the order-up-to policy.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inventory_parameters
    add column lead_time_sd_weeks double precision not null default 0
      check (lead_time_sd_weeks >= 0)`.execute(db);
  await sql`update inventory_parameters i
    set lead_time_sd_weeks = round((i.lead_time_weeks *
      case when p.entity_type = 'Purchased' then 0.25 else 0.1 end)::numeric, 2)
    from products p where p.pid = i.pid`.execute(db);
  await sql`create table inventory_projection_source (
    id integer primary key check (id = 1),
    supply_run_id integer references optimisation_runs(id) on delete set null,
    network_weeks integer not null default 0,
    computed_at timestamptz not null default now()
  )`.execute(db);
}
