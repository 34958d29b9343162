import type { Measure, MoneyScale } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { SearchIcon } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { controlTowerKeys, fetchProducts, fetchWorksheet } from '../api/control-tower.api';
import { PlanComparisonGrid } from './PlanComparisonGrid';

type Props = {
  company: string;
  scale: MoneyScale;
  measure: Measure;
  onToggleMeasure: () => void;
  /** A product to open with (e.g. from the exception queue). */
  initialPid?: string | undefined;
};

/** Product ID Drill Down: the plan comparison for one product, chosen from a searchable list. */
export function ProductDrillDown({ company, scale, measure, onToggleMeasure, initialPid }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(initialPid ?? '');
  const deferred = useDeferredValue(search.trim());
  const products = useQuery({
    queryKey: controlTowerKeys.products(company, deferred),
    queryFn: ({ signal }) => fetchProducts(company, deferred, signal),
    enabled: company !== '',
  });
  const [chosen, setChosen] = useState<{ pid: string; bu: string } | null>(null);
  const product =
    chosen ?? (products.data?.[0] ? { pid: products.data[0].pid, bu: products.data[0].bu } : null);
  const sheet = useQuery({
    queryKey: controlTowerKeys.worksheet({
      company,
      businessUnit: product?.bu ?? '',
      pid: product?.pid ?? '',
    }),
    queryFn: ({ signal }) =>
      fetchWorksheet({ company, businessUnit: product!.bu, pid: product!.pid }, signal),
    enabled: product !== null,
  });
  return (
    <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
      <section
        className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
        aria-labelledby="drill-heading"
      >
        <h2 id="drill-heading" className="text-base font-semibold">
          {t('controlTower:drill.productId')}
        </h2>
        <Label htmlFor="drill-search" className="sr-only">
          {t('controlTower:drill.search')}
        </Label>
        <div className="relative">
          <SearchIcon className="absolute left-2 top-2.5 size-4 text-muted-foreground" aria-hidden />
          <input
            id="drill-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('controlTower:drill.search')}
            className="h-9 w-full rounded-md border border-input bg-background pl-8 pr-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
        </div>
        <ul className="max-h-[600px] overflow-auto" aria-label={t('controlTower:drill.products')}>
          {products.data?.map((p) => (
            <li key={p.pid}>
              <button
                type="button"
                onClick={() => setChosen({ pid: p.pid, bu: p.bu })}
                aria-current={product?.pid === p.pid ? 'true' : undefined}
                className={cn(
                  'flex w-full flex-col rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent',
                  product?.pid === p.pid && 'bg-accent font-semibold',
                )}
              >
                <span>{p.pid}</span>
                <span className="text-xs text-muted-foreground">{`${p.bu} · ${p.pf}`}</span>
              </button>
            </li>
          ))}
          {products.data?.length === 0 && (
            <li className="px-2 py-4 text-sm text-muted-foreground">{t('controlTower:drill.noMatch')}</li>
          )}
        </ul>
      </section>
      {product && sheet.data ? (
        <PlanComparisonGrid
          quarters={sheet.data.quarters}
          measure={measure}
          scale={scale}
          onToggleMeasure={onToggleMeasure}
          title={t('controlTower:drill.comparisonTitle', { pid: product.pid })}
        />
      ) : (
        <p className="p-6 text-sm text-muted-foreground">{t('common:loading')}</p>
      )}
    </div>
  );
}
