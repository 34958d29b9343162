import { errorText } from '@/i18n/error-text';
import { StatusBanner } from './StatusBanner';
import { useTranslation } from 'react-i18next';

type LoadErrorBannerProps = {
  /** Catalogue key of the sentence, e.g. 'planning:loadError.dashboard', with the failure as {{detail}}. */
  subject: string;
  error: Error;
  onRetry: () => void;
  isRetrying: boolean;
};

/** The red banner a card group shows when its data could not be loaded, with Try Again. */
export function LoadErrorBanner({ subject, error, onRetry, isRetrying }: LoadErrorBannerProps) {
  const { t } = useTranslation();
  return (
    <StatusBanner tone="error">
      <span>{t(subject, { detail: errorText(error) })}</span>{' '}
      <button
        type="button"
        className="font-medium underline underline-offset-2"
        onClick={onRetry}
        disabled={isRetrying}
      >
        {t('planning:loadError.retry')}
      </button>
    </StatusBanner>
  );
}
