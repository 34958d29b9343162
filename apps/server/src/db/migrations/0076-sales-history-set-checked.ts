import { sql, type Kysely } from 'kysely';

/**
 * sales_history keeps its products by statement-level triggers instead of a foreign key. A
 * foreign key checks each written row with its own query: a load of three years' history for
 * thousands of products spends a large part of its write doing that. The triggers check each
 * statement's rows at once, with the same guarantees for every writer:
 * - an insert or update whose product does not exist fails (23503, as the foreign key did), and
 *   the products written to are locked FOR KEY SHARE until the transaction ends, so a concurrent
 *   delete or key change of one waits for it and then sees its rows;
 * - deleting or truncating products deletes their history (the foreign key cascaded), and
 *   changing the PID of a product that has history fails.
 */
const VIOLATION = `foreign_key_violation`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sales_history drop constraint if exists sales_history_pid_fkey`.execute(db);
  await sql`
    create function sales_history_check_products() returns trigger language plpgsql as $$
    declare
      pids text[];
      missing text;
    begin
      -- The statement's products once each, then looked up by key: a join of the rows with products
      -- may be planned as a scan of all the rows per product.
      select array_agg(d.pid) into pids from (select distinct n.pid from new_rows n) d;
      perform 1 from products p where p.pid = any(pids) for key share of p;
      select x.pid into missing from unnest(pids) x(pid)
      where not exists (select 1 from products p where p.pid = x.pid) limit 1;
      if missing is not null then
        raise exception 'insert or update on table "sales_history" violates foreign key constraint "sales_history_pid_fkey"'
          using errcode = '${sql.raw(VIOLATION)}', table = 'sales_history', constraint = 'sales_history_pid_fkey',
            detail = format('Key (pid)=(%s) is not present in table "products".', missing);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger sales_history_products_insert after insert on sales_history
    referencing new table as new_rows for each statement execute function sales_history_check_products()`.execute(
    db,
  );
  await sql`create trigger sales_history_products_update after update on sales_history
    referencing new table as new_rows for each statement execute function sales_history_check_products()`.execute(
    db,
  );
  await sql`
    create function sales_history_on_products_delete() returns trigger language plpgsql as $$
    begin
      delete from sales_history s using old_products o where s.pid = o.pid;
      return null;
    end $$`.execute(db);
  await sql`create trigger sales_history_product_delete after delete on products
    referencing old table as old_products for each statement execute function sales_history_on_products_delete()`.execute(
    db,
  );
  await sql`
    create function sales_history_on_products_update() returns trigger language plpgsql as $$
    declare
      gone text;
    begin
      select o.pid into gone from old_products o
      where not exists (select 1 from new_products n where n.pid = o.pid)
        and exists (select 1 from sales_history s where s.pid = o.pid)
      limit 1;
      if gone is not null then
        raise exception 'update or delete on table "products" violates foreign key constraint "sales_history_pid_fkey" on table "sales_history"'
          using errcode = '${sql.raw(VIOLATION)}', table = 'products', constraint = 'sales_history_pid_fkey',
            detail = format('Key (pid)=(%s) is still referenced from table "sales_history".', gone);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger sales_history_product_update after update on products
    referencing old table as old_products new table as new_products
    for each statement execute function sales_history_on_products_update()`.execute(db);
  await sql`
    create function sales_history_on_products_truncate() returns trigger language plpgsql as $$
    begin
      delete from sales_history;
      return null;
    end $$`.execute(db);
  await sql`create trigger sales_history_product_truncate after truncate on products
    for each statement execute function sales_history_on_products_truncate()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger sales_history_product_truncate on products`.execute(db);
  await sql`drop trigger sales_history_product_update on products`.execute(db);
  await sql`drop trigger sales_history_product_delete on products`.execute(db);
  await sql`drop trigger sales_history_products_update on sales_history`.execute(db);
  await sql`drop trigger sales_history_products_insert on sales_history`.execute(db);
  await sql`drop function sales_history_on_products_truncate()`.execute(db);
  await sql`drop function sales_history_on_products_update()`.execute(db);
  await sql`drop function sales_history_on_products_delete()`.execute(db);
  await sql`drop function sales_history_check_products()`.execute(db);
  await sql`delete from sales_history s where not exists (select 1 from products p where p.pid = s.pid)`.execute(
    db,
  );
  await sql`alter table sales_history add constraint sales_history_pid_fkey
    foreign key (pid) references products (pid) on delete cascade`.execute(db);
}
