import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app';
import { createAuthSetup } from '../apps/server/src/modules/auth/auth-setup';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';

/**
 * One server process over an already migrated and seeded PostgreSQL schema, for load benches: the
 * load generator must not share the server's event loop, and several of these stand for several
 * processes behind a load balancer. Environment: PORT, PUBLIC_URL (one issuer for all of them),
 * OIDC_KEYS_FILE (one signing key for all of them), BENCH_DATABASE_URL, BENCH_SCHEMA, BENCH_POOL_SIZE
 * (the pool's connections, 10 as served when unset), BENCH_APPLICATION_NAME (its backends' name).
 * On the message 'event-loop' it answers with its event-loop delay since the last one.
 */
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'silent',
  WEB_DIST_DIR: '/nonexistent',
  // The seed's week is fixed; a roll to the real week (a bulk write over every product) must not
  // run beside what is measured, as in startBenchServer.
  HORIZON_ROLL_IN_SERVER: 'false',
});
const database = openDatabase({
  kind: 'postgres',
  url: process.env.BENCH_DATABASE_URL!,
  schema: process.env.BENCH_SCHEMA!,
  ...(process.env.BENCH_POOL_SIZE ? { poolSize: Number(process.env.BENCH_POOL_SIZE) } : {}),
  // The bench finds this process's PostgreSQL backends by it, to read their CPU from /proc.
  ...(process.env.BENCH_APPLICATION_NAME
    ? { settings: { application_name: process.env.BENCH_APPLICATION_NAME } }
    : {}),
});
const app = await buildApp({
  config,
  database,
  auth: await createAuthSetup(config, { keysFile: process.env.OIDC_KEYS_FILE! }),
});
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
await app.listen({ port: config.PORT, host: '127.0.0.1' });
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on('message', () => {
  const toMs = (ns: number) => ns / 1e6;
  process.send?.({ p50: toMs(delay.percentile(50)), p99: toMs(delay.percentile(99)), max: toMs(delay.max) });
  delay.reset();
});
process.send?.('listening');
