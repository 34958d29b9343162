import type { AggregatedRow, DemandRecord, EditableField, GridPage, GridRow, RecordStamp } from '@ps/domain';
import type {
  CellContextMenuEvent,
  CellEditRequestEvent,
  ColDef,
  GetRowIdParams,
  GridApi,
  RowClickedEvent,
  SortChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useFormatters } from '@/lib/settings/useFormatters';
import { useGridDensity } from '@/lib/settings/useGridDensity';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import '../grid/grid-modules';
import '../grid/demand-grid.css';
import {
  aggregatedColumns,
  groupKeysOf,
  recordColumns,
  type EditState,
  type GroupKey,
} from '../grid/columns';
import type { GridColumnInfo } from '../utils/column-choice';
import type { InvalidEdit } from '../grid/EditableCell';
import { gridThemeDark, gridThemeLight } from '../grid/grid-theme';
import type { GridOverlay } from '../hooks/useGridPage';
import { nextSortOf, type GridSortState } from '../utils/grid-query';
import { gridRowIdOf, recordKeyOf, withPendingValues, type PendingChanges } from '../utils/pending-changes';
import { isEditableView } from '../utils/view-level';
import type { HistoryTarget } from './CellHistoryDialog';
import { GridOverlayPanel } from './GridOverlayPanel';
import { useTranslation } from 'react-i18next';

type DemandGridProps = {
  page: GridPage | null;
  overlay: GridOverlay;
  isEditMode: boolean;
  pending: PendingChanges;
  /** Records with pending edits that another planner changed since (flagged at their cells). */
  conflicts: ReadonlySet<string>;
  invalid: ReadonlyMap<string, InvalidEdit>;
  heightPx: number;
  sort: GridSortState;
  onSortChange: (sort: GridSortState) => void;
  /** The grid has drawn its first rows (once per grid). */
  onFirstRowsShown?: () => void;
  /** The sort a hovered sortable header would ask for (read ahead); undefined once none is hovered. */
  onSortPreview?: (sort: GridSortState | undefined) => void;
  onEditCell: (record: DemandRecord, field: EditableField, raw: unknown) => void;
  /** A value typed into an aggregated cell (levels an edit can spread at); undefined where it cannot. */
  onEditAggregate?: ((row: AggregatedRow, field: string, raw: unknown) => void) | undefined;
  onToggleLock: (record: DemandRecord, locked: boolean) => void;
  onShowHistory: (target: HistoryTarget) => void;
  onRowSelected: (row: GridRow | null) => void;
  /** Columns the planner hid with the column chooser (key columns always show). */
  hiddenColumns: readonly string[];
  /** The columns this view has, for the column chooser. */
  onColumnsChange: (columns: GridColumnInfo[]) => void;
};

/** Spec §4: unsorted → ascending → descending → unsorted; long headers wrap instead of being cut. */
const DEFAULT_COLUMN = {
  resizable: true,
  sortable: true,
  sortingOrder: ['asc', 'desc', null],
  suppressHeaderMenuButton: true,
  wrapHeaderText: true,
  autoHeaderHeight: true,
} satisfies ColDef<GridRow>;

/** Spec §9: rows rendered beyond the viewport. */
const ROW_BUFFER = 10;

const keepServerOrder = (): number => 0;

/** The columns that show a record's stamp (its lock, its last override). */
const STAMP_COLUMNS = ['actions', 'lastOverriddenBy'];

const isKeyColumn = (column: ColDef<GridRow>): boolean =>
  (column.context as { isKey?: boolean } | undefined)?.isKey === true;

const keyOf = (record: DemandRecord) => ({ PID: record.PID, Time_Series_sk: record.Time_Series_sk });

const rowIdOf = ({ data }: GetRowIdParams<GridRow>): string => gridRowIdOf(data);

/**
 * The real-data grid (AG Grid Community). It holds only the page on screen; paging, filtering and
 * roll-ups run on the server. In edit mode the grid never writes into its rows (readOnlyEdit):
 * each edit goes to the pending changes, and the rows shown are the server's rows with those laid over.
 */
export function DemandGrid({
  page,
  overlay,
  isEditMode,
  pending,
  conflicts,
  invalid,
  heightPx,
  sort,
  onSortChange,
  onFirstRowsShown,
  onSortPreview,
  onEditCell,
  onEditAggregate,
  onToggleLock,
  onShowHistory,
  onRowSelected,
  hiddenColumns,
  onColumnsChange,
}: DemandGridProps) {
  const fmt = useFormatters();
  const { t } = useTranslation();
  const density = useGridDensity();
  const { theme } = useUserSettings().settings;
  const [api, setApi] = useState<GridApi<GridRow> | null>(null);
  const isRecordView = page ? isEditableView(page.viewLevel, page.drillDown) : true;

  const serverRecords = useMemo(() => {
    const byKey = new Map<string, DemandRecord>();
    if (page && isRecordView) for (const row of page.rows as DemandRecord[]) byKey.set(recordKeyOf(row), row);
    return byKey;
  }, [page, isRecordView]);

  const rowData = useMemo<GridRow[]>(() => {
    if (!page) return [];
    if (!isRecordView) return page.rows;
    return (page.rows as DemandRecord[]).map((row) => withPendingValues(row, pending));
  }, [page, isRecordView, pending]);

  // A page's locks and last overrides change with every page, the columns do not: the columns read
  // them here, and the cells that show them are redrawn when they change (below).
  const stamps = useRef<Record<string, RecordStamp>>({});
  const pageStamps = page?.stamps;
  useLayoutEffect(() => {
    stamps.current = pageStamps ?? {};
  }, [pageStamps]);
  useEffect(() => {
    api?.refreshCells({ columns: STAMP_COLUMNS, force: true });
  }, [api, pageStamps]);
  const stampsNow = useMemo(
    () => ({
      get stamps() {
        return stamps.current;
      },
    }),
    [],
  );
  // A roll-up's key columns follow the keys its rows carry: the same for every page of a view.
  const groupKeys = useMemo(
    () => (page && !isRecordView ? groupKeysOf(page.rows as AggregatedRow[]).join(',') : ''),
    [page, isRecordView],
  );

  // Pending, refused and conflicting edits change with every edit and every save: the columns'
  // cell classes and editors read them here when the cells are refreshed (forced on each change,
  // below), so an edit or a save redraws cells without rebuilding every column.
  const edits = useRef({ pending, conflicts, invalid });
  useLayoutEffect(() => {
    edits.current = { pending, conflicts, invalid };
  }, [pending, conflicts, invalid]);
  const editState = useMemo<EditState>(
    () => ({
      get pending() {
        return edits.current.pending;
      },
      get conflicts() {
        return edits.current.conflicts;
      },
      get invalid() {
        return edits.current.invalid;
      },
      isEditMode,
    }),
    [isEditMode],
  );

  // Column definitions are costly for AG Grid to take in (it rebuilds every column and measures the
  // headers again), so they change only with what the columns show, never with the page or the
  // edits alone: the aggregate-edit handler, whose identity changes on most renders, counts only
  // as being there or not.
  const canEditAggregates = onEditAggregate !== undefined;
  const columnDefs = useMemo(() => {
    const columns = isRecordView
      ? recordColumns(fmt, editState, {
          stampOf: (record) => stampsNow.stamps[recordKeyOf(record)],
          onToggleLock,
          onShowHistory: (record) => onShowHistory({ ...keyOf(record), field: null }),
        })
      : aggregatedColumns(
          groupKeys === '' ? [] : (groupKeys.split(',') as GroupKey[]),
          fmt,
          canEditAggregates ? editState : undefined,
        );
    // Headers are catalogue keys; a language switch rebuilds them here. The server sorts (spec §4:
    // the whole set, not the page), so the header shows the server's sort and the grid keeps the
    // rows in the order they came.
    const hidden = new Set(hiddenColumns);
    return columns.map((column) => ({
      ...column,
      hide: !isKeyColumn(column) && hidden.has(column.colId ?? ''),
      headerName: column.headerName && t(column.headerName),
      context: { ...(column.context as object | undefined), headerKey: column.headerName },
      sort: sort && column.sortable !== false && sort.field === column.colId ? sort.dir : null,
      comparator: keepServerOrder,
    }));
  }, [
    isRecordView,
    fmt,
    editState,
    stampsNow,
    groupKeys,
    t,
    sort,
    canEditAggregates,
    onToggleLock,
    onShowHistory,
    hiddenColumns,
  ]);

  // The chooser lists this view's columns; it hears of a change only when the list itself changes.
  const reportedColumns = useRef('');
  useEffect(() => {
    const columns = columnDefs.map((column) => ({
      id: column.colId ?? '',
      headerKey: (column.context as { headerKey?: string }).headerKey ?? column.colId ?? '',
      isKey: isKeyColumn(column),
    }));
    const signature = JSON.stringify(columns);
    if (signature === reportedColumns.current) return;
    reportedColumns.current = signature;
    onColumnsChange(columns);
  }, [columnDefs, onColumnsChange]);

  const hoveredHeader = useRef<string | null>(null);
  const onPointerOver = (event: PointerEvent<HTMLDivElement>) => {
    if (!onSortPreview || !(event.target instanceof Element)) return;
    const colId = event.target.closest('.ag-header-cell-sortable')?.getAttribute('col-id') ?? null;
    if (colId === hoveredHeader.current) return;
    hoveredHeader.current = colId;
    onSortPreview(colId === null ? undefined : nextSortOf(sort, colId));
  };

  const onSortChanged = (event: SortChangedEvent<GridRow>) => {
    // Sorting one column clears any other (spec §4: another column starts ascending).
    const sorted = event.api.getColumnState().find((state) => state.sort);
    const next: GridSortState = sorted?.sort ? { field: sorted.colId, dir: sorted.sort } : null;
    if (next?.field !== sort?.field || next?.dir !== sort?.dir) onSortChange(next);
  };

  // Changed-cell markers and editability depend on state outside the row data.
  useEffect(() => {
    api?.refreshCells({ force: true });
  }, [api, pending, conflicts, isEditMode, invalid]);

  const onCellEditRequest = (event: CellEditRequestEvent<GridRow>) => {
    if (!isRecordView) {
      if (event.data && event.colDef.field)
        onEditAggregate?.(event.data as AggregatedRow, event.colDef.field, event.newValue);
      return;
    }
    const field = event.colDef.field as EditableField | undefined;
    const record = event.data ? serverRecords.get(recordKeyOf(event.data as DemandRecord)) : undefined;
    if (!field || !record) return;
    onEditCell(record, field, event.newValue);
  };

  return (
    <div
      className="relative"
      style={{ height: heightPx }}
      data-testid="demand-grid"
      onPointerOver={onPointerOver}
      onPointerLeave={() => {
        hoveredHeader.current = null;
        onSortPreview?.(undefined);
      }}
    >
      {/* The grid is built once its first page is here: built empty, it built every column again
          for the page's (a roll-up's key columns follow its rows) while the first rows waited. */}
      {page && (
        <AgGridReact<GridRow>
          theme={theme === 'dark' ? gridThemeDark : gridThemeLight}
          rowData={rowData}
          columnDefs={columnDefs}
          defaultColDef={DEFAULT_COLUMN}
          onSortChanged={onSortChanged}
          getRowId={rowIdOf}
          rowHeight={density.rowHeight}
          headerHeight={density.headerHeight}
          rowBuffer={ROW_BUFFER}
          // Columns are virtualised as rows are: drawing all ~40 for every row doubled the page's first
          // render (the first row must show quickly). Assistive tech still gets every column:
          // the grid reports aria-colcount and each cell's aria-colindex, arrow keys move to any
          // column and draw it, and ensureDomOrder keeps cells in column order as they are drawn.
          ensureDomOrder
          readOnlyEdit
          onCellEditRequest={onCellEditRequest}
          stopEditingWhenCellsLoseFocus
          singleClickEdit={false}
          loading={false}
          suppressOverlays={['loading', 'noRows']}
          rowSelection={{ mode: 'singleRow', checkboxes: false, enableClickSelection: true }}
          onRowClicked={(event: RowClickedEvent<GridRow>) => onRowSelected(event.data ?? null)}
          // Right-click on a record's cell opens that cell's history (AG Grid Community has no menu).
          preventDefaultOnContextMenu={isRecordView}
          onCellContextMenu={(event: CellContextMenuEvent<GridRow>) => {
            if (isRecordView && event.data && event.colDef.field)
              onShowHistory({ ...keyOf(event.data as DemandRecord), field: event.colDef.field });
          }}
          onGridReady={(event) => setApi(event.api)}
          onFirstDataRendered={onFirstRowsShown}
          tooltipShowDelay={400}
          enableCellTextSelection
        />
      )}
      <GridOverlayPanel overlay={overlay} />
    </div>
  );
}
