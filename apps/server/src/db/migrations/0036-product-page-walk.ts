import { sql, type Kysely } from 'kysely';

/**
 * Product-level and record-level grid pages whose cost does not grow with the number of products
 * (ADR 0010).
 *
 * - `products_pid_c`: products in PID order as the grid orders them (collation "C"), so a page
 *   walks its products from the first one (or the last, descending) and stops once it is full,
 *   instead of taking running sums over every product. The primary key's collation is the
 *   database's (C.UTF-8 on the bench servers), which PostgreSQL cannot use for `collate "C"`.
 *   `demand_records_week_c` does the same for a week's records (the original table by date).
 * - `demand_slice_product_counts`: demand_product_totals summed per slice (client, business unit,
 *   family, region): products, products with data, and their records and month / quarter / year
 *   groups with and without data. A page's total and the count of groups with data (where the
 *   groups without data start) come from these few dozen rows instead of every product.
 *
 * Kept exact by triggers of their own, adding differences (never recounting), slices in key order
 * so that concurrent writers cannot deadlock: a statement trigger on demand_product_totals (every
 * writer of it: the roll-up trigger, an import's new SKUs, the seed's rebuild), and row triggers on
 * products for a product that moves to another slice or is deleted. A deleted product's counts
 * leave its slice before it goes (BEFORE DELETE): once its row is gone, the cascade that deletes
 * its totals row cannot say which slice they were in, and the statement trigger skips such rows.
 */

const COUNTS = [
  'record_count',
  'data_count',
  'month_groups',
  'month_data_groups',
  'quarter_groups',
  'quarter_data_groups',
  'year_groups',
  'year_data_groups',
] as const;

const SLICE = ['client_id', 'bu', 'pf', 'region'] as const;

/**
 * Adds to the slices the signed totals rows `rows` (pid, sign and the counts): the product's own
 * slice, or `slice` (an expression list of the four keys) when given. Nothing is written for a
 * slice whose counts do not change, so an update that leaves a product's counts as they were takes
 * no lock.
 */
const addToSlices = (
  rows: string,
  slice = 'p.client_id, p.bu, p.pf, p.region',
  from = 'join products p on p.pid = x.pid',
) => {
  const sums = [
    'sum(x.sign)',
    'sum(x.sign * (x.data_count > 0)::int)',
    ...COUNTS.map((c) => `sum(x.sign * x.${c})`),
  ];
  return `insert into demand_slice_product_counts as s (${SLICE.join(', ')}, products, data_products, ${COUNTS.join(', ')})
    select ${slice}, ${sums.join(', ')}
    from (${rows}) x ${from}
    group by 1, 2, 3, 4
    having ${sums.map((sum) => `${sum} <> 0`).join(' or ')}
    order by 1, 2, 3, 4
    on conflict (${SLICE.join(', ')}) do update set
      products = s.products + excluded.products, data_products = s.data_products + excluded.data_products,
      ${COUNTS.map((c) => `${c} = s.${c} + excluded.${c}`).join(', ')}`;
};

const signed = (table: string, sign: number) =>
  `select pid, ${sign} as sign, ${COUNTS.join(', ')} from ${table}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index products_pid_c on products (pid collate "C")`.execute(db);
  // The original table sorted by a week field reads each week's records in PID order and stops at
  // the page's end; in the database's collation every record of the week was sorted.
  await sql`create index demand_records_week_c on demand_records (week_start, pid collate "C")`.execute(db);

  await sql`create table demand_slice_product_counts (
    client_id text not null, bu text not null, pf text not null, region text not null,
    products bigint not null, data_products bigint not null,
    ${sql.raw(COUNTS.map((c) => `${c} bigint not null`).join(', '))},
    primary key (client_id, bu, pf, region))`.execute(db);
  await sql.raw(addToSlices(signed('demand_product_totals', 1))).execute(db);

  await sql
    .raw(
      `create function demand_slice_counts_on_product_totals() returns trigger language plpgsql as $fn$
      begin
        if tg_op = 'INSERT' then
          ${addToSlices(signed('new_rows', 1))};
        elsif tg_op = 'UPDATE' then
          ${addToSlices(`${signed('old_rows', -1)} union all ${signed('new_rows', 1)}`)};
        else
          ${addToSlices(signed('old_rows', -1))};
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger demand_slice_counts_${event} after ${event} on demand_product_totals
        referencing ${referencing} for each statement execute function demand_slice_counts_on_product_totals()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function demand_slice_counts_on_product_totals_truncate() returns trigger language plpgsql as $fn$
      begin truncate demand_slice_product_counts; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_slice_counts_truncate after truncate on demand_product_totals
    for each statement execute function demand_slice_counts_on_product_totals_truncate()`.execute(db);

  // A product's totals row moves with the product: out of its old slice, into its new one.
  const moved = (sign: number, row: 'old' | 'new') =>
    `select ${row}.client_id, ${row}.bu, ${row}.pf, ${row}.region, t.pid, ${sign} as sign, ${COUNTS.map((c) => `t.${c}`).join(', ')}
     from demand_product_totals t where t.pid = old.pid`;
  await sql
    .raw(
      `create function demand_slice_counts_on_products() returns trigger language plpgsql as $fn$
      begin
        if tg_op = 'DELETE' then
          ${addToSlices(moved(-1, 'old'), 'x.client_id, x.bu, x.pf, x.region', '')};
          return old;
        end if;
        ${addToSlices(`${moved(-1, 'old')} union all ${moved(1, 'new')}`, 'x.client_id, x.bu, x.pf, x.region', '')};
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_slice_counts_product_move after update of client_id, bu, pf, region on products
    for each row
    when ((old.client_id, old.bu, old.pf, old.region) is distinct from (new.client_id, new.bu, new.pf, new.region))
    execute function demand_slice_counts_on_products()`.execute(db);
  await sql`create trigger demand_slice_counts_product_delete before delete on products
    for each row execute function demand_slice_counts_on_products()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists demand_slice_counts_product_delete on products`.execute(db);
  await sql`drop trigger if exists demand_slice_counts_product_move on products`.execute(db);
  await sql`drop function if exists demand_slice_counts_on_products()`.execute(db);
  for (const event of ['insert', 'update', 'delete', 'truncate']) {
    await sql.raw(`drop trigger if exists demand_slice_counts_${event} on demand_product_totals`).execute(db);
  }
  await sql`drop function if exists demand_slice_counts_on_product_totals_truncate()`.execute(db);
  await sql`drop function if exists demand_slice_counts_on_product_totals()`.execute(db);
  await sql`drop table if exists demand_slice_product_counts`.execute(db);
  await sql`drop index if exists demand_records_week_c`.execute(db);
  await sql`drop index if exists products_pid_c`.execute(db);
}
