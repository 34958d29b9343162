import { InfoIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { useTranslation } from 'react-i18next';

type StatusBannerProps = {
  tone: 'info' | 'error';
  children: ReactNode;
  onDismiss?: () => void;
};

/** The grid's banner (spec §2): yellow information (partial loading) or a red error that can be dismissed. */
export function StatusBanner({ tone, children, onDismiss }: StatusBannerProps) {
  const Icon = tone === 'info' ? InfoIcon : TriangleAlertIcon;
  const { t } = useTranslation();
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
        tone === 'info'
          ? 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100'
          : 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100',
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="flex-1">{children}</div>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('common:dismiss')}
          className="rounded-sm opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <XIcon className="size-4" />
        </button>
      )}
    </div>
  );
}
