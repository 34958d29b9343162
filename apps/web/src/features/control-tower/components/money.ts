import { deltaPercent, formatScaledMoney, type MoneyScale } from '@ps/domain';

/** Tailwind classes of a delta (spec §2: positive in the success colour, negative in the destructive one). */
export function deltaTone(value: number | null | undefined): string {
  if (value === null || value === undefined || value === 0) return '';
  return value > 0 ? 'text-success' : 'text-destructive';
}

export const scaled = (value: number | null | undefined, scale: MoneyScale): string =>
  formatScaledMoney(value, scale);
export { deltaPercent };
