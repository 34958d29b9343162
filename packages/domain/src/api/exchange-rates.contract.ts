import { z } from 'zod';
import { FOREIGN_CURRENCIES, type ExchangeRate } from '../currency/exchange-rates';
import { defineEndpoint } from './endpoint';

const ZIsoDate = z.iso.date({ error: 'must be a date as yyyy-mm-dd' });

export const ZExchangeRate = z.strictObject({
  currency: z.enum(FOREIGN_CURRENCIES),
  validFrom: z.string(),
  rate: z.number(),
}) satisfies z.ZodType<ExchangeRate>;

export const ZExchangeRateChange = z.strictObject({
  currency: z.enum(FOREIGN_CURRENCIES),
  validFrom: z.string(),
  oldRate: z.number().nullable(),
  newRate: z.number().nullable(),
  changedBy: z.string(),
  changedAt: z.iso.datetime(),
});

export const ZExchangeRates = z.strictObject({
  base: z.literal('usd'),
  /** Today's date on the server (UTC): the rates in effect are the latest valid on it. */
  asOf: z.string(),
  rates: z.array(ZExchangeRate),
  changes: z.array(ZExchangeRateChange),
});
export type ExchangeRates = z.infer<typeof ZExchangeRates>;

export const ZExchangeRateParams = z.strictObject({
  currency: z.enum(FOREIGN_CURRENCIES, { error: 'must be one of eur, inr, gbp' }),
  validFrom: ZIsoDate,
});

export const ZExchangeRateBody = z.strictObject({
  // numeric(18, 8): at most 10 digits before the point.
  rate: z
    .number({ error: 'must be a number' })
    .gt(0, { error: 'must be greater than 0' })
    .lt(1e10, { error: 'must be less than 10000000000' }),
});

/** Exchange rates: every signed-in screen converts with them; admins keep them. */
export const exchangeRateEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/exchange-rates',
    access: 'signed-in',
    summary: 'Every exchange rate (units per US dollar, by validity date) and the last changes',
    response: { data: ZExchangeRates },
  }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/api/exchange-rates/:currency/:validFrom',
    access: 'admin',
    summary: 'Sets the rate of a currency from a date on (audited)',
    params: ZExchangeRateParams,
    body: ZExchangeRateBody,
    response: { data: ZExchangeRates },
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/exchange-rates/:currency/:validFrom',
    access: 'admin',
    summary: 'Removes the rate of a currency from a date (audited)',
    params: ZExchangeRateParams,
    response: { data: ZExchangeRates },
  }),
};
