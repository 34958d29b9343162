import { parseArgs } from 'node:util';
import { parseTimeSeriesSk } from '@ps/domain';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../config';
import { clockFromConfig } from '../lib/clock';
import { migrateToLatest, openDatabase } from '../db/database';
import { DEFAULT_SEED, demoWindow, seedDemoData } from '../seed/seed-demo-data';

const USAGE = `Usage: npm run seed -- [--products N] [--weeks W] [--seed S] [--anchor yyyymmdd] [--reset]
  --products  products to generate (default 700)
  --weeks     weeks of demand records per product, half of them ahead
              (default: 130 weeks of history plus PLAN_HORIZON_WEEKS ahead)
  --seed      random seed; the same seed gives the same data (default ${DEFAULT_SEED})
  --anchor    a day in the "current" week (default the server's today, CLOCK_TODAY)
  --reset     empty the database first (otherwise an already seeded database is refused)
Writes to DATABASE_URL when set, else to the embedded database in PGLITE_DATA_DIR (./data/pglite).`;

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new ConfigError(`--${name} must be a whole number of at least 1, got "${value}"`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      products: { type: 'string' },
      weeks: { type: 'string' },
      seed: { type: 'string' },
      anchor: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const anchor =
    values.anchor === undefined ? clockFromConfig(config).now() : parseTimeSeriesSk(values.anchor);
  if (!anchor) throw new ConfigError(`--anchor must be a date as yyyymmdd, got "${values.anchor}"`);
  const database = openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: 2 }
      : { kind: 'pglite', dataDir: config.PGLITE_DATA_DIR },
  );
  try {
    await migrateToLatest(database.db);
    if (values.reset) {
      await sql`truncate products, demand_records, sales_history, plan_versions, audit_log, inventory_parameters, inventory_week_totals, inventory_audit restart identity cascade`.execute(
        database.db,
      );
    } else if (await database.db.selectFrom('products').select('pid').limit(1).executeTakeFirst()) {
      throw new ConfigError('The database already holds data; add --reset to replace it.');
    }
    const summary = await seedDemoData(database.db, {
      products: positiveInt('products', values.products, 700),
      ...demoWindow(
        values.weeks === undefined ? undefined : positiveInt('weeks', values.weeks, 0),
        config.PLAN_HORIZON_WEEKS,
      ),
      seed: positiveInt('seed', values.seed, DEFAULT_SEED),
      anchor,
      log: (message) => console.error(message),
    });
    console.log(JSON.stringify(summary));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Seeding failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
