import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { seedDemoData, type SeedOptions } from './seed-demo-data';

/** Seeds the demo data set on first start, when the database holds no products yet. */
export async function seedIfEmpty(db: Kysely<Database>, options: SeedOptions): Promise<boolean> {
  const existing = await db.selectFrom('products').select('pid').limit(1).executeTakeFirst();
  if (existing) return false;
  await seedDemoData(db, options);
  return true;
}
