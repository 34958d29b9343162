import {
  VIEW_LEVELS,
  type AggregatedRow,
  type DrillDown,
  type GridPeriodChoice,
  type GridRow,
  type SavedView,
  type SavedViewState,
  type ViewLevel,
} from '@ps/domain';
import type { TFunction } from 'i18next';
import { LayoutDashboardIcon } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useBlocker, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { clientContextFor, useAuth } from '@/features/auth';
import { errorText } from '@/i18n/error-text';
import { markFirstScreenShown, markFirstScreenShownAfterPaint } from '@/lib/first-screen';
import { useFormatters } from '@/lib/settings/useFormatters';
import { useServerToday } from '@/features/server-clock';
import { usePublishAiPageContext } from '@/features/ai-assistant';
import { CellHistoryDialog, type HistoryTarget } from './components/CellHistoryDialog';
import { ConfirmDialog } from './components/ConfirmDialog';
import { DemandGrid } from './components/DemandGrid';
import { DemandPlanningHeader } from './components/DemandPlanningHeader';
import { FilterBar, type FilterSelection } from './components/FilterBar';
import { FinancialDashboard } from './components/FinancialDashboard';
import { PeriodBar } from './components/PeriodBar';
import { GridPager } from './components/GridPager';
import { GridToolbar } from './components/GridToolbar';
import { ColumnChooser } from './components/ColumnChooser';
import { SavedViewsMenu } from './components/SavedViewsMenu';
import { useHiddenColumns } from './hooks/useHiddenColumns';
import { savedViewsQuery, useSavedViews } from './hooks/useSavedViews';
import { DEFAULT_HIDDEN_COLUMNS, type GridColumnInfo } from './utils/column-choice';
import { SelectionPanel } from './components/SelectionPanel';
import { SpreadConfirmDialog } from './components/SpreadConfirmDialog';
import { UndoLastSaveButton } from './components/UndoLastSaveButton';
import { StatusBanner } from './components/StatusBanner';
import { usePlanningPolicy } from '@/features/planning-policy';
import { SummaryBlock } from './components/SummaryBlock';
import { useAggregateEdit } from './hooks/useAggregateEdit';
import { useCsvExport } from './hooks/useCsvExport';
import { useFilterOptions } from './hooks/useFilterOptions';
import { useGridEditing } from './hooks/useGridEditing';
import { useGridPage, useRefreshGrid } from './hooks/useGridPage';
import { useGridPreview, useIdlePrefetch } from './hooks/useGridPrefetch';
import { useLiveUpdates } from './hooks/useLiveUpdates';
import { usePlanningPreferences } from './hooks/usePlanningPreferences';
import { useRecordLocks } from './hooks/useRecordLocks';
import { useRefreshDashboard } from './hooks/useDashboardData';
import { currentRowOf } from './utils/pending-changes';
import { conflictingEdits } from './utils/live-changes';
import { viewRequestOf } from './utils/first-grid-request';
import { pageIndexFor, type GridRequest, type GridSortState } from './utils/grid-query';
import { invalidKeyOf } from './grid/columns';
import { DEFAULT_GRID_PERIOD, gridUrlOf, parseGridUrl, type GridLayout } from './utils/grid-url';
import { GridLayoutSwitch } from './time-phased/GridLayoutSwitch';
import { TimePhasedView } from './time-phased/TimePhasedView';
import type { LoadBanner } from './utils/load-policy';
import { DRILL_DOWN_LABEL_KEYS, VIEW_LEVEL_LABEL_KEYS, isEditableView } from './utils/view-level';
import { useTranslation } from 'react-i18next';

const COMPANY = 'Planning Suite';

function bannerText(banner: LoadBanner, t: TFunction): string {
  switch (banner.kind) {
    case 'partial':
      return t('planning:banner.partial', { rows: banner.rowsShown });
    case 'timeout':
      return t('planning:banner.timeout');
    case 'failed':
      return errorText(banner.error) || t('planning:banner.failed');
  }
}

/** The demand planning page (spec §2): dashboard, summary, the real-data grid and its edit mode. */
export default function DemandPlanningPage() {
  const { today, clock } = useServerToday();
  const planClock = useMemo(
    () => (clock ? { currentWeek: clock.currentWeek, horizonWeeks: clock.horizon.weeks } : null),
    [clock],
  );
  const fmt = useFormatters();
  const { t } = useTranslation();
  const { user } = useAuth();
  const clientContext = user ? clientContextFor(user.groups) : 'admin';
  // The view, filters, sort and page live in the URL, so a link opens the same view.
  const [searchParams, setSearchParams] = useSearchParams();
  const [fromUrl] = useState(() => parseGridUrl(searchParams));
  const [preferences, updatePreferences] = usePlanningPreferences({
    ...(fromUrl.viewLevel ? { viewLevel: fromUrl.viewLevel } : {}),
    ...(fromUrl.drillDown ? { drillDownType: fromUrl.drillDown } : {}),
    ...(fromUrl.pageSize ? { pageSize: fromUrl.pageSize } : {}),
  });
  const [selection, setSelection] = useState<FilterSelection>({
    bu: fromUrl.bu,
    pf: fromUrl.pf,
    region: fromUrl.region,
    search: fromUrl.search,
  });
  const [pageIndex, setPageIndex] = useState(fromUrl.pageIndex);
  const [layout, setLayout] = useState<GridLayout>(fromUrl.layout ?? 'table');
  const [sortState, setSort] = useState<GridSortState>(fromUrl.sort);
  const [period, setPeriod] = useState<GridPeriodChoice>(fromUrl.period ?? DEFAULT_GRID_PERIOD);
  const [isFocusView, setFocusView] = useState(false);
  const [hiddenColumns, setHiddenColumns] = useHiddenColumns(user?.sub ?? '');
  const [gridColumns, setGridColumns] = useState<GridColumnInfo[]>([]);
  const savedViews = useSavedViews();
  const [activeViewId, setActiveViewId] = useState<number | null>(null);
  // Opening a saved view restarts the filter bar, so its search box shows the view's search.
  const [filterBarKey, setFilterBarKey] = useState(0);
  const [selectedRow, setSelectedRow] = useState<GridRow | null>(null);
  const [isRefreshing, setRefreshing] = useState(false);
  const filterOptions = useFilterOptions();
  const editing = useGridEditing({ isAutoSave: preferences.autoSave });
  const refreshGrid = useRefreshGrid();
  const refreshDashboard = useRefreshDashboard();
  const { viewLevel, drillDownType: drillDown, pageSize } = preferences;

  // The request of a view with these filters and weeks: the one on screen, or one a control would open.
  const viewWith = useCallback(
    (view: { viewLevel: ViewLevel; drillDown: DrillDown; sort: GridSortState }) => {
      const options = filterOptions.data;
      return viewRequestOf({
        ...view,
        selection,
        optionCounts: {
          bu: options?.businessUnits.length ?? 0,
          pf: options?.productFamilies.length ?? 0,
          region: options?.regions.length ?? 0,
        },
        period,
      });
    },
    [selection, filterOptions.data, period],
  );
  const viewRequest = useMemo(
    () => viewWith({ viewLevel, drillDown, sort: sortState }),
    [viewWith, viewLevel, drillDown, sortState],
  );
  // A sort by a column the view does not have (e.g. PF at business-unit level) lapses.
  const sort = viewRequest.sort ?? null;
  const request = useMemo<GridRequest>(
    () => ({ ...viewRequest, offset: pageIndex * pageSize, limit: pageSize }),
    [viewRequest, pageIndex, pageSize],
  );

  useEffect(() => {
    const next = gridUrlOf({
      layout,
      viewLevel,
      drillDown,
      period,
      ...selection,
      sort,
      pageIndex,
      pageSize,
      ...(activeViewId !== null ? { savedViewId: activeViewId } : {}),
    }).toString();
    if (next !== searchParams.toString()) setSearchParams(next, { replace: true });
  }, [
    layout,
    viewLevel,
    drillDown,
    period,
    selection,
    sort,
    pageIndex,
    pageSize,
    activeViewId,
    searchParams,
    setSearchParams,
  ]);

  const grid = useGridPage(request, clientContext, isRefreshing);
  // Read ahead: the view a hovered control would open, and once the page is in and the browser
  // idle, the levels next to this one (where a planner goes to look closer or further out).
  const preview = useGridPreview();
  // A change of level, drill-down or sort opens the new view on its first page.
  const firstPageOf = useCallback(
    (change: { viewLevel?: ViewLevel; drillDown?: DrillDown; sort?: GridSortState }): GridRequest => ({
      ...viewWith({ viewLevel, drillDown, sort: sortState, ...change }),
      offset: 0,
      limit: pageSize,
    }),
    [viewWith, viewLevel, drillDown, sortState, pageSize],
  );
  const adjacentLevels = useMemo(() => {
    const at = VIEW_LEVELS.indexOf(viewLevel);
    return [VIEW_LEVELS[at - 1], VIEW_LEVELS[at + 1]]
      .filter((level) => level !== undefined)
      .map((level) => firstPageOf({ viewLevel: level }));
  }, [firstPageOf, viewLevel]);
  useIdlePrefetch(adjacentLevels, layout === 'table' && grid.page !== null && !grid.isFetching);
  // The page's first content is its grid's first rows (the grid says when it has drawn them); with
  // no rows to draw (the time-phased view, a page that failed or has none) it is what is there.
  const hasNoRowsToDraw = layout !== 'table' || grid.overlay === 'empty' || grid.page?.rows.length === 0;
  useEffect(() => {
    if (hasNoRowsToDraw) markFirstScreenShown();
  }, [hasNoRowsToDraw]);
  // Another planner's save refetches this page; an unsaved edit of a record
  // that changed underneath is flagged before the planner saves it.
  useLiveUpdates(grid.page, sort !== null);
  const conflicts = useMemo(() => conflictingEdits(editing.pending, grid.page), [editing.pending, grid.page]);
  usePublishAiPageContext({
    page: 'demand-planning',
    viewLevel,
    drillDownType: drillDown,
    filters: { bu: viewRequest.bu ?? [], pf: viewRequest.pf ?? [], region: viewRequest.region ?? [] },
    pendingChanges: editing.pending.size,
  });
  const aggregateEdit = useAggregateEdit(viewRequest);
  const toggleLock = useRecordLocks();
  const [historyTarget, setHistoryTarget] = useState<HistoryTarget | null>(null);
  // Product, family and business-unit rows take edits and spread them to their records.
  const canSpread = viewLevel !== 'none';
  const { markRefused } = editing;
  const { edit: proposeSpread } = aggregateEdit;
  const editAggregate = useCallback(
    (row: AggregatedRow, field: string, raw: unknown) =>
      markRefused(invalidKeyOf(row, field), raw, proposeSpread(row, field, raw)),
    [markRefused, proposeSpread],
  );
  const { isExporting, exportCsv } = useCsvExport(viewRequest, clientContext);
  const total = grid.page?.total ?? 0;
  const isAggregatedView = !isEditableView(viewLevel, drillDown);

  // Spec §4: changing filters, view level or drill-down returns to the first page.
  const changeSelection = (next: FilterSelection) => {
    setSelection(next);
    setPageIndex(0);
    setSelectedRow(null);
  };
  const changePeriod = (next: GridPeriodChoice) => {
    setPeriod(next);
    setPageIndex(0);
    setSelectedRow(null);
  };
  const changeView = (patch: { viewLevel?: ViewLevel; drillDownType?: DrillDown }) => {
    updatePreferences(patch);
    setPageIndex(0);
    setSelectedRow(null);
  };

  // The time-phased plan needs items and periods: from the original table it opens at family × month.
  const changeLayout = (next: GridLayout) => {
    setLayout(next);
    if (next === 'time-phased')
      changeView({
        ...(viewLevel === 'none' ? { viewLevel: 'category' } : {}),
        ...(['weekly', 'monthly', 'quarterly'].includes(drillDown) ? {} : { drillDownType: 'monthly' }),
      });
  };
  const isTimePhased = layout === 'time-phased';

  const currentViewState = (): SavedViewState => ({
    layout,
    viewLevel,
    drillDown,
    ...selection,
    sort,
    pageSize,
    hiddenColumns,
    period,
  });
  const openSavedView = useCallback(
    (view: SavedView) => {
      const { state } = view;
      setLayout(state.layout);
      updatePreferences({
        viewLevel: state.viewLevel,
        drillDownType: state.drillDown,
        pageSize: state.pageSize,
      });
      setSelection({ bu: state.bu, pf: state.pf, region: state.region, search: state.search });
      setSort(state.sort);
      setPeriod(state.period ?? DEFAULT_GRID_PERIOD);
      setPageIndex(0);
      setSelectedRow(null);
      setHiddenColumns(state.hiddenColumns);
      setActiveViewId(view.id);
      setFilterBarKey((key) => key + 1);
    },
    [updatePreferences, setHiddenColumns],
  );
  // The saved view a link names opens for its owner. Anyone else has no such view: the link's own
  // grid state (view, filters, sort) stands, and they are told the named view is not theirs.
  const queryClient = useQueryClient();
  const [linkedViewId] = useState(fromUrl.savedViewId);
  useEffect(() => {
    if (linkedViewId === undefined) return;
    let isCurrent = true;
    queryClient.ensureQueryData(savedViewsQuery()).then(
      (views) => {
        if (!isCurrent) return;
        const view = views.find((v) => v.id === linkedViewId);
        if (view) openSavedView(view);
        else
          toast({
            title: t('planning:views.notYours.title'),
            description: t('planning:views.notYours.description'),
          });
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [linkedViewId, queryClient, openSavedView, t]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([refreshGrid(), refreshDashboard(), filterOptions.refetch()]);
    } finally {
      setRefreshing(false);
    }
  };

  const enterEditMode = () => {
    if (isAggregatedView && !canSpread) {
      // Edits go to original records; an aggregated row stands for many of them.
      changeView({ viewLevel: 'none', drillDownType: 'none' });
      toast({
        title: t('planning:toast.viewChanged.title'),
        description: t('planning:toast.viewChanged.description'),
      });
    }
    editing.enterEditMode();
  };

  const policy = usePlanningPolicy();
  const footerNote =
    grid.isFetching && grid.page
      ? t('planning:footer.background')
      : editing.isEditMode
        ? `${t('planning:footer.editMode')}${policy.requireOverrideReason ? ` ${t('planning:footer.reasonRequired')}` : ''}`
        : isAggregatedView && grid.page
          ? t('planning:footer.aggregated', {
              rows: fmt.number(total),
              viewLevel: t(VIEW_LEVEL_LABEL_KEYS[viewLevel]),
              drillDown: t(DRILL_DOWN_LABEL_KEYS[drillDown]),
            })
          : '';

  // Leaving the page with unsaved edits asks first, like leaving edit mode.
  // Only leaving the page counts: paging, sorting and filtering rewrite this page's URL.
  const hasUnsaved = editing.isEditMode && editing.pending.size > 0;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasUnsaved && currentLocation.pathname !== nextLocation.pathname,
  );

  return (
    <div className="flex min-h-full flex-col">
      <DemandPlanningHeader
        isFocusView={isFocusView}
        onFocusViewChange={setFocusView}
        exportView={viewRequest}
        clientContext={clientContext}
        total={total}
      />
      <div className="flex flex-1 flex-col gap-6 p-6">
        {isFocusView ? (
          <div className="flex justify-end">
            <Button variant="outline" size="sm" onClick={() => setFocusView(false)}>
              <LayoutDashboardIcon />
              {t('planning:showDashboard')}
            </Button>
          </div>
        ) : (
          <>
            <FinancialDashboard />
            <SummaryBlock />
          </>
        )}

        <section
          aria-labelledby="real-data-grid-title"
          className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
        >
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 id="real-data-grid-title" className="text-lg font-semibold">
                {t('planning:grid.title')}
              </h2>
              <p className="text-sm text-muted-foreground">
                {t(VIEW_LEVEL_LABEL_KEYS[viewLevel])} · {t(DRILL_DOWN_LABEL_KEYS[drillDown])}
                {editing.isEditMode && ` · ${t('planning:grid.editMode')}`}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <GridLayoutSwitch
                layout={layout}
                onLayoutChange={changeLayout}
                isDisabled={editing.isEditMode}
              />
              <UndoLastSaveButton isDisabled={editing.isSaving || editing.pending.size > 0} />
              <SavedViewsMenu
                saved={savedViews}
                activeViewId={activeViewId}
                currentState={currentViewState}
                onOpen={openSavedView}
                isDisabled={editing.isEditMode}
              />
              {!isTimePhased && (
                <ColumnChooser
                  columns={gridColumns}
                  hidden={hiddenColumns}
                  onHiddenChange={setHiddenColumns}
                  onReset={() => setHiddenColumns([...DEFAULT_HIDDEN_COLUMNS])}
                />
              )}
              {!isTimePhased && (
                <GridToolbar
                  isEditMode={editing.isEditMode}
                  changeCount={editing.counts.changes}
                  isSaving={editing.isSaving}
                  isRefreshing={isRefreshing}
                  isExporting={isExporting}
                  canExport={total > 0}
                  isAutoSave={preferences.autoSave}
                  onAutoSaveChange={(isAutoSave) => updatePreferences({ autoSave: isAutoSave })}
                  onRefresh={() => void refresh()}
                  onEnterEditMode={enterEditMode}
                  onSave={editing.save}
                  onDiscard={editing.discard}
                  onExitEditMode={editing.requestExitEditMode}
                  onExport={() => void exportCsv()}
                />
              )}
            </div>
          </div>
          <FilterBar
            key={filterBarKey}
            options={filterOptions.data}
            selection={selection}
            onSelectionChange={changeSelection}
            viewLevel={viewLevel}
            drillDown={drillDown}
            onViewLevelChange={(next) => changeView({ viewLevel: next })}
            onDrillDownChange={(next) => changeView({ drillDownType: next })}
            onViewPreview={(change) => preview(change && firstPageOf(change))}
            isViewLocked={editing.isEditMode}
          />
          {!isTimePhased && (
            <PeriodBar
              period={period}
              clock={planClock}
              onPeriodChange={changePeriod}
              isDisabled={editing.isEditMode}
            />
          )}
          {filterOptions.error && (
            <StatusBanner tone="error">
              {t('planning:filter.failed', { detail: errorText(filterOptions.error) })}
            </StatusBanner>
          )}
          {grid.banner && (
            <StatusBanner tone={grid.banner.tone} onDismiss={grid.dismissBanner}>
              {bannerText(grid.banner, t)}
            </StatusBanner>
          )}
          {conflicts.size > 0 && (
            <StatusBanner tone="info">
              <div data-testid="live-conflict-banner">
                <p className="font-medium">{t('live:conflict.title', { count: conflicts.size })}</p>
                <p>{t('live:conflict.description')}</p>
              </div>
            </StatusBanner>
          )}
          {editing.staleReport && (
            <StatusBanner tone="error" onDismiss={editing.dismissStaleReport}>
              <p className="font-medium">
                {t('planning:stale.title', { detail: editing.staleReport.message })}
              </p>
              <p>{t('planning:stale.description')}</p>
            </StatusBanner>
          )}
          {isTimePhased ? (
            <TimePhasedView viewLevel={viewLevel} drillDown={drillDown} filters={viewRequest} />
          ) : (
            <>
              <DemandGrid
                page={grid.page}
                overlay={grid.overlay}
                isEditMode={editing.isEditMode}
                pending={editing.pending}
                conflicts={conflicts}
                invalid={editing.invalid}
                heightPx={preferences.gridHeight}
                sort={sort}
                onSortChange={(next) => {
                  setSort(next);
                  setPageIndex(0);
                }}
                onFirstRowsShown={markFirstScreenShownAfterPaint}
                onSortPreview={(next) => preview(next === undefined ? null : firstPageOf({ sort: next }))}
                onEditCell={editing.editCell}
                onEditAggregate={canSpread ? editAggregate : undefined}
                onToggleLock={toggleLock}
                onShowHistory={setHistoryTarget}
                onRowSelected={setSelectedRow}
                hiddenColumns={hiddenColumns}
                onColumnsChange={setGridColumns}
              />
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-xs text-muted-foreground" data-testid="grid-footer-note">
                  {footerNote}
                </p>
                <GridPager
                  total={total}
                  pageIndex={pageIndex}
                  pageSize={pageSize}
                  onPageChange={setPageIndex}
                  onPagePreview={(index) =>
                    preview(index === null ? null : { ...request, offset: index * pageSize })
                  }
                  onPageSizeChange={(size) => {
                    updatePreferences({ pageSize: size });
                    setPageIndex(pageIndexFor(pageIndex * pageSize, size));
                  }}
                  onPageSizePreview={(size) =>
                    preview(
                      size === null
                        ? null
                        : {
                            ...request,
                            offset: pageIndexFor(pageIndex * pageSize, size) * size,
                            limit: size,
                          },
                    )
                  }
                  isDisabled={grid.page === null}
                />
              </div>
            </>
          )}
        </section>

        {!isFocusView && <SelectionPanel row={currentRowOf(selectedRow, grid.page?.rows)} />}
      </div>
      <footer className="border-t border-border px-6 py-3 text-center text-xs text-muted-foreground">
        {t('planning:copyright', { year: Number(today.slice(0, 4)), company: COMPANY })}
      </footer>

      <SpreadConfirmDialog
        proposed={aggregateEdit.proposed}
        isSaving={aggregateEdit.isBusy}
        onConfirm={aggregateEdit.confirm}
        onCancel={aggregateEdit.cancel}
      />
      <CellHistoryDialog target={historyTarget} onClose={() => setHistoryTarget(null)} />
      <ConfirmDialog
        isOpen={editing.isExitConfirmOpen}
        title={t('planning:exitDialog.title')}
        description={t('planning:exitDialog.description', {
          changes: t('planning:unsaved.changes', { count: editing.counts.changes }),
          records: t('planning:unsaved.records', { count: editing.counts.records }),
        })}
        confirmLabel={t('planning:exitDialog.confirm')}
        cancelLabel={t('planning:exitDialog.cancel')}
        onConfirm={editing.confirmExitEditMode}
        onCancel={editing.cancelExitEditMode}
      />
      <ConfirmDialog
        isOpen={blocker.state === 'blocked'}
        title={t('planning:leaveDialog.title')}
        description={t('planning:leaveDialog.description', {
          changes: t('planning:unsaved.changes', { count: editing.counts.changes }),
        })}
        confirmLabel={t('planning:leaveDialog.confirm')}
        cancelLabel={t('planning:leaveDialog.cancel')}
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </div>
  );
}
