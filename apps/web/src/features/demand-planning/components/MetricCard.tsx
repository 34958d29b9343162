import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useTranslation } from 'react-i18next';

type MetricCardProps = {
  title: string;
  value: ReactNode;
  caption?: ReactNode;
  icon: LucideIcon;
  tone?: 'neutral' | 'positive' | 'negative';
  isLoading: boolean;
  /** Stays the same in every language, for tests. */
  testId: string;
};

/** One figure of the Financial Dashboard. */
export function MetricCard({
  title,
  value,
  caption,
  icon: Icon,
  tone = 'neutral',
  isLoading,
  testId,
}: MetricCardProps) {
  const { t } = useTranslation();
  return (
    <Card className="@container flex min-w-0 flex-col gap-2 p-4" aria-busy={isLoading}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-muted-foreground">{title}</h3>
        <Icon className="size-4 text-muted-foreground" aria-hidden />
      </div>
      {isLoading ? (
        <div
          className="h-8 w-32 animate-pulse rounded bg-muted"
          aria-label={t('planning:loadingItem', { title })}
        />
      ) : (
        <p
          className={cn(
            // Shrinks with the card (a narrow one when the chat is open) instead of overflowing it.
            'text-[length:clamp(0.875rem,10cqi,1.5rem)] font-semibold whitespace-nowrap tabular-nums',
            tone === 'positive' && 'text-success',
            tone === 'negative' && 'text-destructive',
          )}
          data-testid={`metric-${testId}`}
        >
          {value}
        </p>
      )}
      {caption && <p className="text-xs text-muted-foreground">{caption}</p>}
    </Card>
  );
}
