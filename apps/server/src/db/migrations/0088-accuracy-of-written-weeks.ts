import { sql, type Kysely } from 'kysely';
import { refreshFunction } from './0028-accuracy-by-product';

/** Lags the accuracy screen offers, frozen here as in migration 0018. */
const MAX_LAG = 13;

/**
 * `refresh_accuracy_weeks(pids, weeks)`: the accuracy sums of the records written at these
 * product-weeks (parallel arrays), recounted for the lags those weeks reach and no others. A
 * written week pairs its actual with the snapshot taken `lag` weeks before it; only the (lag,
 * product) keys that have such a snapshot can change, and each is recounted from all its pairs
 * (the exception figures rank a key's pairs and take their spread, so a key is never patched by
 * differences). `refresh_accuracy(pids)` recounts every lag of each product: a weekly load that
 * touches one week recounted its products' every snapshot at every lag.
 */
const KEYED = refreshFunction(true, {
  signature: 'refresh_accuracy_weeks(pids text[], weeks date[])',
  source: '(select distinct x.lag, x.pid from unnest(key_lags, key_pids) x(lag, pid))',
  prelude: `declare
        key_lags smallint[];
        key_pids text[];
      begin
        select coalesce(array_agg(k.lag), '{}'), coalesce(array_agg(k.pid), '{}') into key_lags, key_pids
        from (select distinct l.lag::smallint as lag, w.pid
          from unnest(pids, weeks) w(pid, week)
          cross join generate_series(1, ${MAX_LAG}) l(lag)
          join forecast_snapshots s on s.pid = w.pid and s.snapshot_week = w.week - 7 * l.lag) k;
        if cardinality(key_pids) = 0 then
          return;
        end if;
        pids := array(select distinct unnest(key_pids));`,
});

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(KEYED).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function refresh_accuracy_weeks(text[], date[])`.execute(db);
}
