import {
  TIME_PHASED_BUCKETS,
  TIME_PHASED_DEFAULT_ITEMS,
  type DrillDown,
  type TimePhasedBucket,
  type ViewLevel,
} from '@ps/domain';
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { useFormatters } from '@/lib/settings/useFormatters';
import { SpreadPreviewDialog } from '../components/SpreadConfirmDialog';
import { StatusBanner } from '../components/StatusBanner';
import type { GridRequest } from '../utils/grid-query';
import { TimePhasedGrid } from './TimePhasedGrid';
import { planRowsOf, type CellPos, type PastedCell } from './time-phased-grid';
import { useTimePhasedEdits, useTimePhasedPage } from './useTimePhased';

type TimePhasedViewProps = {
  /** The page's View Level and Drill Down choose the items and the periods. */
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  filters: Pick<GridRequest, 'bu' | 'pf' | 'region' | 'search'>;
};

const isBucket = (drillDown: DrillDown): drillDown is TimePhasedBucket =>
  (TIME_PHASED_BUCKETS as readonly string[]).includes(drillDown);

/** The time-phased planning view: a page of items, their measures across periods. */
export function TimePhasedView({ viewLevel, drillDown, filters }: TimePhasedViewProps) {
  const { t } = useTranslation();
  if (viewLevel === 'none' || !isBucket(drillDown))
    return <StatusBanner tone="info">{t('timePhased:chooseView')}</StatusBanner>;
  return <TimePhasedPageView viewLevel={viewLevel} bucket={drillDown} filters={filters} />;
}

function TimePhasedPageView({
  viewLevel,
  bucket,
  filters,
}: {
  viewLevel: Exclude<ViewLevel, 'none'>;
  bucket: TimePhasedBucket;
  filters: TimePhasedViewProps['filters'];
}) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const [pageIndex, setPageIndex] = useState(0);
  const [view, setView] = useState({ viewLevel, bucket, filters });
  // A new level, bucket or filter starts again at the first page.
  if (view.viewLevel !== viewLevel || view.bucket !== bucket || view.filters !== filters) {
    setView({ viewLevel, bucket, filters });
    setPageIndex(0);
  }
  const request = useMemo(
    () => ({
      viewLevel,
      bucket,
      bu: filters.bu,
      pf: filters.pf,
      region: filters.region,
      search: filters.search,
      offset: pageIndex * TIME_PHASED_DEFAULT_ITEMS,
      limit: TIME_PHASED_DEFAULT_ITEMS,
    }),
    [viewLevel, bucket, filters, pageIndex],
  );
  const page = useTimePhasedPage(request);
  const edits = useTimePhasedEdits(request);
  const [refused, setRefused] = useState<{ at: CellPos; reason: string } | null>(null);
  const rows = useMemo(() => (page.data ? planRowsOf(page.data) : []), [page.data]);
  const periods = page.data?.periods ?? [];
  const pending = useMemo(
    () => new Map((edits.proposed?.cells ?? []).map((cell) => [`${cell.row}:${cell.col}`, cell.raw])),
    [edits.proposed],
  );

  const edit = (cells: PastedCell[]) => {
    const refusal = edits.propose(
      cells,
      periods.map((period) => period.key),
    );
    setRefused(refusal && { at: { row: refusal.cell.row, col: refusal.cell.col }, reason: refusal.reason });
    if (refusal)
      toast({
        title: t('planning:toast.invalid.title'),
        description: t('timePhased:refusedCell', {
          item: refusal.cell.item,
          period: periods[refusal.cell.col]?.label ?? '',
          reason: refusal.reason,
        }),
        variant: 'destructive',
      });
  };
  const refusePaste = (reason: 'outside' | 'not-editable', at: CellPos) =>
    toast({
      title: t('timePhased:pasteRefused.title'),
      description:
        reason === 'outside'
          ? t('timePhased:pasteRefused.outside')
          : t('timePhased:pasteRefused.notEditable', {
              period: periods[at.col]?.label ?? '',
            }),
      variant: 'destructive',
    });

  const total = page.data?.totalItems ?? 0;
  const first = total === 0 ? 0 : pageIndex * TIME_PHASED_DEFAULT_ITEMS + 1;
  const last = Math.min(total, (pageIndex + 1) * TIME_PHASED_DEFAULT_ITEMS);

  return (
    <div className="flex flex-col gap-2" data-testid="time-phased-view">
      <p className="text-xs text-muted-foreground">{t('timePhased:keys')}</p>
      {page.error && (
        <StatusBanner tone="error">{errorText(page.error) || t('planning:banner.failed')}</StatusBanner>
      )}
      {!page.data ? (
        <p className="py-10 text-center text-sm text-muted-foreground">{t('planning:overlay.loading')}</p>
      ) : rows.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">{t('planning:overlay.empty')}</p>
      ) : (
        // Mounted once the periods are known, so the cursor starts at the first open period.
        <TimePhasedGrid
          rows={rows}
          periods={periods}
          pending={pending}
          refused={refused}
          onEdit={edit}
          onPasteRefused={refusePaste}
        />
      )}
      <div className="flex items-center justify-end gap-2 text-sm text-muted-foreground">
        <span data-testid="time-phased-range">
          {t('timePhased:items', {
            first: fmt.number(first),
            last: fmt.number(last),
            total: fmt.number(total),
          })}
        </span>
        <Button
          variant="outline"
          size="sm"
          aria-label={t('timePhased:previous')}
          disabled={pageIndex === 0}
          onClick={() => setPageIndex(pageIndex - 1)}
        >
          <ChevronLeftIcon />
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-label={t('timePhased:next')}
          disabled={last >= total}
          onClick={() => setPageIndex(pageIndex + 1)}
        >
          <ChevronRightIcon />
        </Button>
      </div>
      {edits.proposed && (
        <SpreadPreviewDialog
          what={t('timePhased:confirm', { count: edits.proposed.cells.length })}
          preview={edits.proposed.preview}
          isSaving={edits.isBusy}
          onConfirm={edits.confirm}
          onCancel={edits.cancel}
        />
      )}
    </div>
  );
}
