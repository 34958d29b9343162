import type { ServerModule } from '../../lib/server-module';
import { registerExchangeRateRoutes } from './exchange-rates.routes';
import { ExchangeRateService } from './exchange-rates.service';

export const exchangeRatesModule: ServerModule = {
  name: 'exchange-rates',
  register: (app, { database }) => registerExchangeRateRoutes(app, new ExchangeRateService(database.db)),
};

/** Every rate (US dollars to each foreign currency, by the date it starts): other modules convert with it. */
export { listRates as exchangeRates } from './exchange-rates.repository';
