import { sql, type Kysely } from 'kysely';

/**
 * A company's own stock and supply for inventory planning, as the admin's bulk loads bring them in
 * (docs/data-integration.md):
 * - inventory_positions: the units on hand of a product × site on a day. The latest one is the
 *   row's on hand (inventory_parameters.on_hand_units); each is the stock of its week in
 *   inventory_history.
 * - inventory_open_orders: order lines still to arrive, by due date. A product × site with any
 *   loaded line takes its projection's receipts from its open lines instead of the simulated
 *   orders of the demo history; a closed line is kept so a re-sent feed can say it was received.
 * Both hang off the product × site row, whose lead times the lead-times load sets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table inventory_positions (
    pid text not null,
    site text not null,
    as_of date not null,
    on_hand_units integer not null check (on_hand_units >= 0),
    loaded_at timestamptz not null default now(),
    primary key (pid, site, as_of),
    foreign key (pid, site) references inventory_parameters (pid, site) on delete cascade
  )`.execute(db);
  await sql`create table inventory_open_orders (
    order_id text not null,
    pid text not null,
    site text not null,
    quantity integer not null check (quantity >= 0),
    due_date date not null,
    status text not null check (status in ('open', 'closed')),
    loaded_at timestamptz not null default now(),
    primary key (order_id, pid, site),
    foreign key (pid, site) references inventory_parameters (pid, site) on delete cascade
  )`.execute(db);
  await sql`create index inventory_open_orders_row on inventory_open_orders (pid, site)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table inventory_open_orders`.execute(db);
  await sql`drop table inventory_positions`.execute(db);
}
