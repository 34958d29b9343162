import { GRID_PAGE_SIZES } from '@ps/domain';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useFormatters } from '@/lib/settings/useFormatters';
import { pageCount } from '../utils/grid-query';
import type { GridPageSize } from '../utils/preferences';
import { useTranslation } from 'react-i18next';
import { CurrencyNote } from '@/components/CurrencyNote';

type GridPagerProps = {
  total: number;
  pageIndex: number;
  pageSize: GridPageSize;
  onPageChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: GridPageSize) => void;
  /** The page a hovered or focused button would open (read ahead); null once it is left. */
  onPagePreview?: (pageIndex: number | null) => void;
  /** The page size a hovered or focused option would choose; null once the list closes. */
  onPageSizePreview?: (pageSize: GridPageSize | null) => void;
  isDisabled: boolean;
};

/** Pagination under the grid: page size 25/50/100/200/500 (spec §9) and the page on the server. */
export function GridPager({
  total,
  pageIndex,
  pageSize,
  onPageChange,
  onPageSizeChange,
  onPagePreview,
  onPageSizePreview,
  isDisabled,
}: GridPagerProps) {
  const fmt = useFormatters();
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  const first = total === 0 ? 0 : pageIndex * pageSize + 1;
  const last = Math.min(total, (pageIndex + 1) * pageSize);
  const isFirst = pageIndex <= 0;
  const isLast = pageIndex >= pages - 1;
  const previewOf = (index: number) => ({
    onPointerEnter: () => onPagePreview?.(index),
    onFocus: () => onPagePreview?.(index),
    onPointerLeave: () => onPagePreview?.(null),
    onBlur: () => onPagePreview?.(null),
  });

  return (
    <nav
      className="flex flex-wrap items-center justify-end gap-4 text-sm"
      aria-label={t('planning:pager.label')}
    >
      <CurrencyNote className="mr-auto" />
      <label className="flex items-center gap-2 text-muted-foreground">
        {t('planning:pager.pageSizeLabel')}
        <Select
          value={String(pageSize)}
          onValueChange={(value) => onPageSizeChange(Number(value) as GridPageSize)}
          onOpenChange={(isOpen) => !isOpen && onPageSizePreview?.(null)}
        >
          <SelectTrigger className="h-8 w-20" aria-label={t('planning:pager.pageSize')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {GRID_PAGE_SIZES.map((size) => (
              <SelectItem key={size} value={String(size)} onFocus={() => onPageSizePreview?.(size)}>
                {size}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </label>
      <span className="tabular-nums" data-testid="pager-summary">
        {t('planning:pager.range', {
          first: fmt.number(first),
          last: fmt.number(last),
          total: fmt.number(total),
        })}
      </span>
      <div className="flex items-center gap-1">
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('planning:pager.first')}
          disabled={isDisabled || isFirst}
          onClick={() => onPageChange(0)}
          {...previewOf(0)}
        >
          <ChevronsLeftIcon />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('planning:pager.previous')}
          disabled={isDisabled || isFirst}
          onClick={() => onPageChange(pageIndex - 1)}
          {...previewOf(pageIndex - 1)}
        >
          <ChevronLeftIcon />
        </Button>
        <span className="px-2 tabular-nums">
          {t('planning:pager.page', { page: fmt.number(pageIndex + 1), pages: fmt.number(pages) })}
        </span>
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('planning:pager.next')}
          disabled={isDisabled || isLast}
          onClick={() => onPageChange(pageIndex + 1)}
          {...previewOf(pageIndex + 1)}
        >
          <ChevronRightIcon />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('planning:pager.last')}
          disabled={isDisabled || isLast}
          onClick={() => onPageChange(pages - 1)}
          {...previewOf(pages - 1)}
        >
          <ChevronsRightIcon />
        </Button>
      </div>
    </nav>
  );
}
