import { exchangeRateEndpoints, type ExchangeRates, type ForeignCurrency } from '@ps/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EXCHANGE_RATES_KEY } from '@/lib/settings/useExchangeRates';
import { callEndpoint } from '@/lib/api-client';

type RateKey = { currency: ForeignCurrency; validFrom: string };

/** Saving or removing a rate answers the whole table, which every money formatter then uses. */
export function useRateChanges() {
  const queryClient = useQueryClient();
  const onSuccess = (table: ExchangeRates) => queryClient.setQueryData(EXCHANGE_RATES_KEY, table);
  const save = useMutation({
    mutationFn: ({ rate, ...params }: RateKey & { rate: number }) =>
      callEndpoint(exchangeRateEndpoints.save, { params, body: { rate } }),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (params: RateKey) => callEndpoint(exchangeRateEndpoints.remove, { params }),
    onSuccess,
  });
  return { save, remove };
}
