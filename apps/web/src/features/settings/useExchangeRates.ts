import { exchangeRateEndpoints, type ExchangeRates } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/features/auth/hooks/useAuth';
import { callEndpoint } from '@/lib/api-client';

export const EXCHANGE_RATES_KEY = ['exchange-rates'] as const;

/** The exchange-rate table (signed-in users only); undefined until loaded or when signed out. */
export function useExchangeRates(): ExchangeRates | undefined {
  const { isAuthenticated } = useAuth();
  const { data } = useQuery({
    queryKey: EXCHANGE_RATES_KEY,
    queryFn: () => callEndpoint(exchangeRateEndpoints.list, { parse: true }),
    enabled: isAuthenticated,
    // Rates change a few times a year; a screen opened later picks up an admin's change.
    staleTime: 5 * 60_000,
  });
  return data;
}
