import { LoaderCircleIcon } from 'lucide-react';
import type { GridOverlay } from '../hooks/useGridPage';
import { useTranslation } from 'react-i18next';

/** The grid's overlays (spec §2), drawn over the grid body below the header. */
export function GridOverlayPanel({ overlay }: { overlay: GridOverlay }) {
  const { t } = useTranslation();
  if (!overlay) return null;
  const isBusy = overlay === 'initial' || overlay === 'loading';
  return (
    <div
      className={
        overlay === 'loading'
          ? 'pointer-events-none absolute inset-x-0 top-10 bottom-0 flex items-center justify-center bg-background/40'
          : 'pointer-events-none absolute inset-x-0 top-10 bottom-0 flex items-center justify-center'
      }
      role="status"
      aria-live="polite"
    >
      <div className="flex flex-col items-center gap-2 rounded-md border border-border bg-card px-6 py-4 text-sm shadow-sm">
        {isBusy && <LoaderCircleIcon className="size-5 animate-spin text-primary" aria-hidden />}
        {overlay === 'initial' && (
          <>
            <span className="font-medium">{t('planning:overlay.initial')}</span>
            <span className="text-muted-foreground">{t('planning:overlay.firstBatch')}</span>
          </>
        )}
        {overlay === 'loading' && <span className="font-medium">{t('planning:overlay.loading')}</span>}
        {overlay === 'empty' && <span className="text-muted-foreground">{t('planning:overlay.empty')}</span>}
      </div>
    </div>
  );
}
