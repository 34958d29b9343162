import { todayOf } from '../../lib/clock';
import type { ServerModule } from '../../lib/server-module';
import { registerExchangeRateRoutes } from './exchange-rates.routes';
import { ExchangeRateService } from './exchange-rates.service';

export const exchangeRatesModule: ServerModule = {
  name: 'exchange-rates',
  register: (app, { database, clock }) =>
    registerExchangeRateRoutes(app, new ExchangeRateService(database.db, () => todayOf(clock))),
};

/** The rate table (US dollars to each foreign currency, by the date it starts), for modules that show or write money in the user's currency. */
export { listRates } from './exchange-rates.repository';
