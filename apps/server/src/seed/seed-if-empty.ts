import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { seedDemoData, type SeedOptions } from './seed-demo-data';

/**
 * Seeds the demo data set on first start, when the database holds no products yet. One
 * transaction: a start stopped mid-seed (kill -9, power loss) leaves nothing behind, so the next
 * start finds the database empty and seeds it again instead of keeping half a data set. The
 * table lock makes a second server starting at the same time wait, then find the data there.
 */
export async function seedIfEmpty(db: Kysely<Database>, options: SeedOptions): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // A large seed runs longer than the request statement timeout allows; it is a one-off job.
    await sql`set local statement_timeout = 0`.execute(trx);
    await sql`lock table products in share row exclusive mode`.execute(trx);
    const existing = await trx.selectFrom('products').select('pid').limit(1).executeTakeFirst();
    if (existing) return false;
    await seedDemoData(trx, options);
    return true;
  });
}
