import type { ExchangeRate, ForeignCurrency } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export type ExchangeRateChangeRow = {
  currency: string;
  valid_from: string;
  old_rate: number | null;
  new_rate: number | null;
  changed_by: string;
  changed_at: Date;
};

export async function listRates(db: Kysely<Database>): Promise<ExchangeRate[]> {
  const rows = await db
    .selectFrom('exchange_rates')
    .select(['currency', 'valid_from', 'rate'])
    .orderBy('currency')
    .orderBy('valid_from')
    .execute();
  return rows.map((row) => ({
    currency: row.currency as ForeignCurrency,
    validFrom: row.valid_from,
    rate: row.rate,
  }));
}

export async function listChanges(db: Kysely<Database>, limit: number): Promise<ExchangeRateChangeRow[]> {
  return db
    .selectFrom('exchange_rate_changes')
    .select(['currency', 'valid_from', 'old_rate', 'new_rate', 'changed_by', 'changed_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

type RateKey = { currency: ForeignCurrency; validFrom: string };

async function currentRate(trx: Kysely<Database>, key: RateKey): Promise<number | undefined> {
  const row = await trx
    .selectFrom('exchange_rates')
    .select('rate')
    .where('currency', '=', key.currency)
    .where('valid_from', '=', key.validFrom)
    .forUpdate()
    .executeTakeFirst();
  return row?.rate;
}

/** Sets a rate and records the change, in one transaction; an unchanged rate records nothing. */
export async function upsertRate(
  db: Kysely<Database>,
  key: RateKey & { rate: number },
  changedBy: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const old = await currentRate(trx, key);
    if (old === key.rate) return;
    await trx
      .insertInto('exchange_rates')
      .values({ currency: key.currency, valid_from: key.validFrom, rate: key.rate, updated_by: changedBy })
      .onConflict((conflict) =>
        conflict.columns(['currency', 'valid_from']).doUpdateSet({ rate: key.rate, updated_by: changedBy }),
      )
      .execute();
    await trx
      .insertInto('exchange_rate_changes')
      .values({
        currency: key.currency,
        valid_from: key.validFrom,
        old_rate: old ?? null,
        new_rate: key.rate,
        changed_by: changedBy,
      })
      .execute();
  });
}

/** Removes a rate and records it; false when there was none. */
export async function deleteRate(db: Kysely<Database>, key: RateKey, changedBy: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const old = await currentRate(trx, key);
    if (old === undefined) return false;
    await trx
      .deleteFrom('exchange_rates')
      .where('currency', '=', key.currency)
      .where('valid_from', '=', key.validFrom)
      .execute();
    await trx
      .insertInto('exchange_rate_changes')
      .values({
        currency: key.currency,
        valid_from: key.validFrom,
        old_rate: old,
        new_rate: null,
        changed_by: changedBy,
      })
      .execute();
    return true;
  });
}
