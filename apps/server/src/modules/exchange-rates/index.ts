import type { ServerModule } from '../../lib/server-module';
import { registerExchangeRateRoutes } from './exchange-rates.routes';
import { ExchangeRateService } from './exchange-rates.service';

export const exchangeRatesModule: ServerModule = {
  name: 'exchange-rates',
  register: (app, { database }) => registerExchangeRateRoutes(app, new ExchangeRateService(database.db)),
};

/** The rate table, for modules that show or write money in the user's currency (exports). */
export { listRates } from './exchange-rates.repository';
