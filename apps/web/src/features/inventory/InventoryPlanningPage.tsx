import type { InventoryFilters, InventoryRow } from '@ps/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { PageHeading } from '@/components/PageHeading';
import { errorText } from '@/i18n/error-text';
import { FilterCard } from './components/FilterCard';
import { InsightsCard } from './components/InsightsCard';
import { OverrideTable } from './components/OverrideTable';
import { SummaryCards } from './components/SummaryCards';
import { changeOf, isModified, type Draft } from './drafts';
import {
  confirmRow,
  confirmRows,
  fetchInventoryFilterOptions,
  fetchInventoryPage,
  inventoryKeys,
} from './inventory-api';

const FILTER_KEYS = ['category', 'businessUnit', 'region', 'site', 'sku', 'search'] as const;

/**
 * Inventory Planning Override System (spec §2): order-up-to levels per product × site
 * computed from the demand plan, overridden by planners with a reason code.
 */
export default function InventoryPlanningPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters: InventoryFilters = Object.fromEntries(
    FILTER_KEYS.flatMap((key) => {
      const value = searchParams.get(key);
      return value ? [[key, value]] : [];
    }),
  );
  const [page, setPage] = useState(1);
  const [isFocusView, setFocusView] = useState(false);
  const [drafts, setDrafts] = useState<Record<string, { row: InventoryRow; draft: Draft }>>({});

  const pageQuery = useQuery({
    queryKey: inventoryKeys.page(filters, page),
    queryFn: () => fetchInventoryPage(filters, page),
    placeholderData: keepPreviousData,
  });
  const optionsQuery = useQuery({ queryKey: inventoryKeys.options, queryFn: fetchInventoryFilterOptions });

  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string | null): void => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearchParams(next);
    setPage(1);
  };
  const clearFilters = (): void => {
    setSearchParams(new URLSearchParams());
    setPage(1);
  };

  const pending = Object.values(drafts).filter(({ row, draft }) => isModified(row, draft));
  const onSaved = async (ids: string[]): Promise<void> => {
    setDrafts((current) => {
      const next = { ...current };
      for (const id of ids) delete next[id];
      return next;
    });
    await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
  };
  const onFailed = async (error: unknown): Promise<void> => {
    toast({ title: t('inventory:toast.saveFailed'), description: errorText(error), variant: 'destructive' });
    await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
  };
  const confirmOne = useMutation({
    mutationFn: ({ row, draft }: { row: InventoryRow; draft: Draft }) => confirmRow(changeOf(row, draft)),
    onSuccess: async (saved) => {
      await onSaved([saved.id]);
      toast({ title: t('inventory:toast.confirmed', { sku: saved.sku, site: saved.site }) });
    },
    onError: onFailed,
  });
  const confirmAll = useMutation({
    mutationFn: () => confirmRows(pending.map(({ row, draft }) => changeOf(row, draft))),
    onSuccess: async (result) => {
      await onSaved(result.items.map((r) => r.id));
      toast({ title: t('inventory:toast.bulkConfirmed', { count: result.updated }) });
    },
    onError: onFailed,
  });

  const data = pageQuery.data;
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={t('inventory:title')}
        subtitle={t('inventory:subtitle')}
        badges={<Badge variant="outline">{t('inventory:badge')}</Badge>}
        actions={
          <div className="flex items-center gap-2">
            <Switch id="inventory-focus" checked={isFocusView} onCheckedChange={setFocusView} />
            <Label htmlFor="inventory-focus">{t('inventory:focusView')}</Label>
          </div>
        }
      />
      {!isFocusView && data && <SummaryCards summary={data.summary} />}
      <FilterCard options={optionsQuery.data} filters={filters} onChange={setFilter} onClear={clearFilters} />
      <OverrideTable
        page={data}
        isLoading={pageQuery.isLoading}
        loadError={pageQuery.error}
        drafts={drafts}
        pendingCount={pending.length}
        isSaving={confirmOne.isPending || confirmAll.isPending}
        onDraft={(row, draft) => setDrafts((current) => ({ ...current, [row.id]: { row, draft } }))}
        onConfirm={(row, draft) => confirmOne.mutate({ row, draft })}
        onBulkConfirm={() => confirmAll.mutate()}
        onPage={setPage}
      />
      {data && <InsightsCard insights={data.insights} />}
    </div>
  );
}
