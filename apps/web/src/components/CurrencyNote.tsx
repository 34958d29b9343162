import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { useFormatters } from '@/lib/settings/useFormatters';

/**
 * What a screen (or a file made from it) says about its money: which exchange rate it was
 * converted with, or that no rate is valid for the chosen currency so amounts stay in dollars.
 * Null for dollars.
 */
export function useCurrencyNote(): { text: string; missing: boolean } | null {
  const { t } = useTranslation();
  const format = useFormatters();
  const { rate } = format;
  if (format.missingRate) return { text: t('settings:currencyNote.missing'), missing: true };
  if (rate.currency === 'usd' || !rate.validFrom) return null;
  return {
    text: t('settings:currencyNote.converted', {
      currency: rate.currency.toUpperCase(),
      rate: format.number(rate.rate, 4),
      date: format.date(rate.validFrom),
    }),
    missing: false,
  };
}

/** The currency note under a screen's figures. */
export function CurrencyNote({ className }: { className?: string }) {
  const note = useCurrencyNote();
  if (!note) return null;
  return (
    <p
      role="note"
      className={cn('text-xs', note.missing ? 'text-warning' : 'text-muted-foreground', className)}
    >
      {note.text}
    </p>
  );
}
