import { exchangeRateEndpoints, type ExchangeRates } from '@ps/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/features/auth';
import { hasKnownGroup } from '@/lib/auth/groups';
import { callEndpoint } from '@/lib/api-client';

export const EXCHANGE_RATES_KEY = ['exchange-rates'] as const;

export const exchangeRatesQuery = () =>
  queryOptions({
    queryKey: EXCHANGE_RATES_KEY,
    queryFn: () => callEndpoint(exchangeRateEndpoints.list, { parse: true }),
    // Rates change a few times a year; a screen opened later picks up an admin's change.
    staleTime: 5 * 60_000,
  });

/** The exchange-rate table (users of a known group only); undefined until loaded or when signed out. */
export function useExchangeRates(): ExchangeRates | undefined {
  const { isAuthenticated, user } = useAuth();
  const { data } = useQuery({ ...exchangeRatesQuery(), enabled: isAuthenticated && hasKnownGroup(user) });
  return data;
}
