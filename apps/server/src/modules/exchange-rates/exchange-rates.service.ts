import type { ExchangeRates, ForeignCurrency } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { deleteRate, listChanges, listRates, upsertRate } from './exchange-rates.repository';

const CHANGES_SHOWN = 20;

type RateKey = { currency: ForeignCurrency; validFrom: string };

/**
 * Exchange rates (docs/metrics.md "Currency"): every amount is stored in US
 * dollars and shown converted with the latest rate valid today; admins keep the table.
 */
export class ExchangeRateService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
  ) {}

  async list(): Promise<ExchangeRates> {
    const [rates, changes] = await Promise.all([listRates(this.db), listChanges(this.db, CHANGES_SHOWN)]);
    return {
      base: 'usd',
      asOf: this.today(),
      rates,
      changes: changes.map((row) => ({
        currency: row.currency as ForeignCurrency,
        validFrom: row.valid_from,
        oldRate: row.old_rate,
        newRate: row.new_rate,
        changedBy: row.changed_by,
        changedAt: new Date(row.changed_at).toISOString(),
      })),
    };
  }

  async save(scope: AccessScope, key: RateKey, rate: number): Promise<ExchangeRates> {
    await upsertRate(this.db, { ...key, rate }, scope.userName);
    return this.list();
  }

  async remove(scope: AccessScope, key: RateKey): Promise<ExchangeRates> {
    const removed = await deleteRate(this.db, key, scope.userName);
    if (!removed) throw AppError.notFound(`No ${key.currency.toUpperCase()} rate starts on ${key.validFrom}`);
    return this.list();
  }
}
