import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { useFormatters } from '../useFormatters';

/**
 * Says which exchange rate the money on a screen was converted with (issue 18), or that no rate
 * is valid for the chosen currency so amounts stay in dollars. Nothing for dollars.
 */
export function CurrencyNote({ className }: { className?: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { rate } = format;
  if (format.missingRate)
    return (
      <p role="note" className={cn('text-xs text-warning', className)}>
        {t('settings:currencyNote.missing')}
      </p>
    );
  if (rate.currency === 'usd' || !rate.validFrom) return null;
  return (
    <p role="note" className={cn('text-xs text-muted-foreground', className)}>
      {t('settings:currencyNote.converted', {
        currency: rate.currency.toUpperCase(),
        rate: format.number(rate.rate, 4),
        date: format.date(rate.validFrom),
      })}
    </p>
  );
}
