import { StatusBanner } from './StatusBanner';

type LoadErrorBannerProps = {
  /** What failed to load, e.g. "the dashboard". */
  subject: string;
  error: Error;
  onRetry: () => void;
  isRetrying: boolean;
};

/** The red banner a card group shows when its data could not be loaded, with Try Again. */
export function LoadErrorBanner({ subject, error, onRetry, isRetrying }: LoadErrorBannerProps) {
  return (
    <StatusBanner tone="error">
      <span>
        Could not load {subject}: {error.message}
      </span>{' '}
      <button
        type="button"
        className="font-medium underline underline-offset-2"
        onClick={onRetry}
        disabled={isRetrying}
      >
        Try Again
      </button>
    </StatusBanner>
  );
}
