import type { MoneyScale } from '@ps/domain';
import { useFormatters } from '@/lib/settings/useFormatters';

/** Tailwind classes of a delta (spec §2: positive in the success colour, negative in the destructive one). */
export function deltaTone(value: number | null | undefined): string {
  if (value === null || value === undefined || value === 0) return '';
  return value > 0 ? 'text-success' : 'text-destructive';
}

/**
 * Control tower money (spec §9: symbol, K/M/B scale, one decimal below 10; '-' for no value) in
 * the user's currency, converted at the rate the formatters apply, and number format.
 */
export function useScaledMoney(): (value: number | null | undefined, scale: MoneyScale) => string {
  const format = useFormatters();
  return (value, scale) => (value === null || value === undefined ? '-' : format.scaled(value, scale));
}
