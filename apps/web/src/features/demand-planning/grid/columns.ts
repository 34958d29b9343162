import {
  COMMENTS_MAX_LENGTH,
  DEMAND_RECORD_FIELDS,
  REASON_CODES,
  fieldSpecOf,
  isOverrideField,
  type AggregatedRow,
  type DemandRecord,
  type EditableField,
  type FieldKind,
  type GridRow,
  weekEndingOf,
} from '@ps/domain';
import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import type { Formatters } from '@/lib/settings/useFormatters';
import { i18next } from '../../../i18n/i18n';
import { isCellChanged, recordKeyOf, type PendingChanges } from '../utils/pending-changes';
import { DateCell, type DateCellParams } from './DateCell';
import { EditableCell, type EditableCellParams, type InvalidEdit } from './EditableCell';
import { RecordActionsCell, type RecordActionsParams } from './RecordActionsCell';

/** The edit state the editable columns read; refused edits are keyed by record key and field. */
export type EditState = {
  pending: PendingChanges;
  /** Keys of records whose pending edits another planner's save overtook (live updates). */
  conflicts?: ReadonlySet<string>;
  isEditMode: boolean;
  invalid?: ReadonlyMap<string, InvalidEdit>;
};

/** A refused edit's key: the record's (or the aggregated row's id) and the field. */
export const invalidKeyOf = (
  row: GridRow | Pick<DemandRecord, 'PID' | 'Time_Series_sk'>,
  field: string,
): string =>
  `${'id' in row && typeof row.id === 'string' ? row.id : recordKeyOf(row as DemandRecord)}|${field}`;

type Kind = 'units' | 'money' | 'percent' | 'text' | 'rank';

/**
 * Catalogue keys of the column headers (the grid translates them); the API field name shows as the
 * header's tooltip and is what the CSV uses.
 */
const HEADER_KEYS: Record<string, string> = {
  PID: 'planning:column.PID',
  BU: 'planning:column.BU',
  PF: 'planning:column.PF',
  Class: 'planning:column.Class',
  Region: 'planning:column.Region',
  Site: 'planning:column.Site',
  EntityType: 'planning:column.EntityType',
  Date: 'planning:column.Date',
  Fiscal_Quarter: 'planning:column.Fiscal_Quarter',
  Rank: 'planning:column.Rank',
  Act_Bkg_Units: 'planning:column.Act_Bkg_Units',
  Act_Bkg_Cost: 'planning:column.Act_Bkg_Cost',
  Act_Rev_Dlrs: 'planning:column.Act_Rev_Dlrs',
  Naïve_Rev_Mfg_Fcst_Bk_Units: 'planning:column.Naive_Rev_Mfg_Fcst_Bk_Units',
  Ensemble_Fcst_Units: 'planning:column.Ensemble_Fcst_Units',
  Rev_Pln_Ovrd_Percent: 'planning:column.Rev_Pln_Ovrd_Percent',
  Rev_Pln_Ovrd_Units: 'planning:column.Rev_Pln_Ovrd_Units',
  Prelim_Pln_Units: 'planning:column.Prelim_Pln_Units',
  Prelim_Pln_Cost: 'planning:column.Prelim_Pln_Cost',
  Prelim_Pln_Rev_Dlrs: 'planning:column.Prelim_Pln_Rev_Dlrs',
  SOP_Pln_Ovrd_Percent: 'planning:column.SOP_Pln_Ovrd_Percent',
  SOP_Pln_Ovrd_Units: 'planning:column.SOP_Pln_Ovrd_Units',
  Final_Pln_Units: 'planning:column.Final_Pln_Units',
  Final_Bk_Pln_Cost: 'planning:column.Final_Bk_Pln_Cost',
  Final_Pln_Rev_Dlrs: 'planning:column.Final_Pln_Rev_Dlrs',
  Reason_Code: 'planning:column.Reason_Code',
  Reason_Codes: 'planning:column.Reason_Codes',
  Comments: 'planning:column.Comments',
  Cost: 'planning:column.Cost',
  Delta_Prelim_to_Final_Pln_Units: 'planning:column.Delta_Prelim_to_Final_Pln_Units',
  Delta_Prelim_to_Final_Pln_Cost: 'planning:column.Delta_Prelim_to_Final_Pln_Cost',
  Delta_Prelim_to_Final_Pln_Rev_Dlrs: 'planning:column.Delta_Prelim_to_Final_Pln_Rev_Dlrs',
  P1_Pub_Pln_Units: 'planning:column.P1_Pub_Pln_Units',
  P1_Pub_Pln_Cost: 'planning:column.P1_Pub_Pln_Cost',
  P1_Pub_Pln_Rev_Dlrs: 'planning:column.P1_Pub_Pln_Rev_Dlrs',
  P2_Pub_Pln_Units: 'planning:column.P2_Pub_Pln_Units',
  P2_Pub_Pln_Cost: 'planning:column.P2_Pub_Pln_Cost',
  P2_Pub_Pln_Rev_Dlrs: 'planning:column.P2_Pub_Pln_Rev_Dlrs',
  last_updated_at: 'planning:column.last_updated_at',
  last_updated_by: 'planning:column.last_updated_by',
  periodLabel: 'planning:column.periodLabel',
  recordCount: 'planning:column.recordCount',
  commentCount: 'planning:column.commentCount',
  actions: 'grid:column.actions',
  lastOverriddenBy: 'grid:column.lastOverriddenBy',
};

/** Roll-ups average the override percents weighted by units, and say so in the header. */
const WEIGHTED_HEADER_KEYS: Record<string, string> = {
  Rev_Pln_Ovrd_Percent: 'planning:column.Rev_Pln_Ovrd_Percent_weighted',
  SOP_Pln_Ovrd_Percent: 'planning:column.SOP_Pln_Ovrd_Percent_weighted',
};

/** How a column reads: by its record field's kind in the catalogue; other columns are text. */
const KIND_OF: Partial<Record<FieldKind, Kind>> = {
  money: 'money',
  percent: 'percent',
  rank: 'rank',
  units: 'units',
  forecast: 'units',
};
function kindOf(field: string): Kind {
  if (field === 'recordCount' || field === 'commentCount') return 'units';
  const kind = fieldSpecOf(field)?.kind;
  return (kind && KIND_OF[kind]) ?? 'text';
}

/** Units read whole; the statistical forecasts carry decimals and keep two. */
function formatUnits(fmt: Formatters, value: unknown): string {
  if (typeof value !== 'number') return '';
  return fmt.number(value, Number.isInteger(value) ? 0 : 2);
}

function column(field: string, fmt: Formatters, extra: ColDef<GridRow> = {}): ColDef<GridRow> {
  const kind = kindOf(field);
  const isNumeric = kind !== 'text';
  const formatter = (params: ValueFormatterParams<GridRow>): string => {
    const value: unknown = params.value;
    switch (kind) {
      case 'money':
        return fmt.money(value as number | null);
      case 'percent':
        return fmt.percent(value as number | null);
      case 'units':
      case 'rank':
        return formatUnits(fmt, value);
      case 'text':
        return typeof value === 'string' ? value : '';
    }
  };
  return {
    field: field as ColDef<GridRow>['field'],
    colId: field,
    headerName: HEADER_KEYS[field] ?? field,
    headerTooltip: field,
    cellDataType: isNumeric ? 'number' : 'text',
    type: isNumeric ? 'rightAligned' : undefined,
    valueFormatter: formatter,
    // Narrower than AG Grid's 200 px default: headers wrap, and a planner sees the forecast, the
    // overrides and the final plan side by side.
    width: isNumeric ? 104 : 140,
    minWidth: isNumeric ? 96 : 120,
    // Explicit: AG Grid keeps a column's pin across views when a definition leaves it out, so BU
    // pinned at business-unit level stayed pinned in the original table.
    pinned: null,
    ...extra,
  };
}

/** Marks a column that says what a row is: the column chooser never hides it. */
export const KEY_COLUMN = { isKey: true } as const;

/**
 * Number overrides are typed as text: AG Grid's number editor drops a value outside its bounds (or
 * letters) without a word, so whatever was typed goes to the domain's rules, which say why.
 */
const NUMBER_TEXT_EDITOR = { cellEditor: 'agTextCellEditor' } as const;

const EDITORS: Record<
  EditableField,
  Pick<ColDef<GridRow>, 'cellEditor' | 'cellEditorParams' | 'cellEditorPopup'>
> = {
  Rev_Pln_Ovrd_Percent: NUMBER_TEXT_EDITOR,
  SOP_Pln_Ovrd_Percent: NUMBER_TEXT_EDITOR,
  Rev_Pln_Ovrd_Units: NUMBER_TEXT_EDITOR,
  SOP_Pln_Ovrd_Units: NUMBER_TEXT_EDITOR,
  Reason_Code: { cellEditor: 'agSelectCellEditor', cellEditorParams: { values: ['', ...REASON_CODES] } },
  Comments: {
    cellEditor: 'agLargeTextCellEditor',
    cellEditorPopup: true,
    cellEditorParams: { maxLength: COMMENTS_MAX_LENGTH, rows: 3, cols: 50 },
  },
};

/** An editable column (spec §5): editable only in edit mode; changed cells carry a marker class. */
function editableColumn(field: EditableField, fmt: Formatters, edit: EditState): ColDef<GridRow> {
  const invalidOf: EditableCellParams['invalidOf'] = (record, name) =>
    edit.invalid?.get(invalidKeyOf(record, name));
  return column(field, fmt, {
    ...EDITORS[field],
    editable: edit.isEditMode,
    ...(field === 'Comments' || field === 'Reason_Code'
      ? {}
      : { cellRenderer: EditableCell, cellRendererParams: { invalidOf } satisfies EditableCellParams }),
    cellClassRules: {
      'dp-cell-editable': () => edit.isEditMode,
      'dp-cell-changed': (params) =>
        params.data !== undefined &&
        isCellChanged(edit.pending, recordKeyOf(params.data as DemandRecord), field),
      'dp-cell-invalid': (params) => params.data !== undefined && invalidOf(params.data, field) !== undefined,
      'dp-cell-conflict': (params) => {
        const key = params.data === undefined ? '' : recordKeyOf(params.data as DemandRecord);
        return edit.conflicts?.has(key) === true && isCellChanged(edit.pending, key, field);
      },
    },
    ...(field === 'Comments' ? { minWidth: 220, tooltipField: 'Comments' as never } : {}),
  });
}

function dateColumn(field: 'Date' | 'last_updated_at', format: (value: string) => string, fmt: Formatters) {
  return column(field, fmt, {
    cellRenderer: DateCell,
    cellRendererParams: { format } satisfies DateCellParams,
    cellDataType: 'text',
    minWidth: field === 'Date' ? 120 : 150,
  });
}

/**
 * Columns of the original table (view level none, no drill-down): every field of the demand
 * record; with `actions`, a lock toggle and history per record and who last overrode it.
 */
export function recordColumns(
  fmt: Formatters,
  edit: EditState,
  actions?: RecordActionsParams,
): ColDef<GridRow>[] {
  const stampOf = (row: GridRow | undefined) =>
    row && actions ? actions.stampOf(row as DemandRecord) : undefined;
  const leading: ColDef<GridRow>[] = actions
    ? [
        {
          colId: 'actions',
          headerName: HEADER_KEYS.actions,
          pinned: 'left',
          width: 116,
          minWidth: 116,
          sortable: false,
          resizable: false,
          cellRenderer: RecordActionsCell,
          cellRendererParams: actions,
        },
      ]
    : [];
  const trailing: ColDef<GridRow>[] = actions
    ? [
        column('lastOverriddenBy', fmt, {
          sortable: false,
          minWidth: 150,
          valueGetter: (params) => stampOf(params.data)?.lastOverriddenBy ?? null,
          tooltipValueGetter: (params) => {
            const at = stampOf(params.data)?.lastOverriddenAt;
            return at ? fmt.dateTime(at) : null;
          },
        }),
      ]
    : [];
  return [
    ...leading,
    column('PID', fmt, { pinned: 'left', minWidth: 130, cellClass: 'font-medium', context: KEY_COLUMN }),
    column('BU', fmt),
    column('PF', fmt),
    column('Class', fmt, { minWidth: 80 }),
    column('Region', fmt),
    column('Site', fmt),
    column('EntityType', fmt),
    { ...dateColumn('Date', fmt.date, fmt), pinned: 'left' },
    column('Fiscal_Quarter', fmt, { minWidth: 110 }),
    column('Rank', fmt, { minWidth: 80 }),
    column('Act_Bkg_Units', fmt),
    column('Act_Bkg_Cost', fmt),
    column('Act_Rev_Dlrs', fmt),
    column('Naïve_Rev_Mfg_Fcst_Bk_Units', fmt),
    column('Ensemble_Fcst_Units', fmt),
    editableColumn('Rev_Pln_Ovrd_Percent', fmt, edit),
    editableColumn('Rev_Pln_Ovrd_Units', fmt, edit),
    column('Prelim_Pln_Units', fmt),
    column('Prelim_Pln_Cost', fmt),
    column('Prelim_Pln_Rev_Dlrs', fmt),
    editableColumn('SOP_Pln_Ovrd_Percent', fmt, edit),
    editableColumn('SOP_Pln_Ovrd_Units', fmt, edit),
    column('Final_Pln_Units', fmt),
    column('Final_Bk_Pln_Cost', fmt),
    column('Final_Pln_Rev_Dlrs', fmt),
    editableColumn('Reason_Code', fmt, edit),
    editableColumn('Comments', fmt, edit),
    column('Cost', fmt),
    column('Delta_Prelim_to_Final_Pln_Units', fmt),
    column('Delta_Prelim_to_Final_Pln_Cost', fmt),
    column('Delta_Prelim_to_Final_Pln_Rev_Dlrs', fmt),
    column('P1_Pub_Pln_Units', fmt),
    column('P1_Pub_Pln_Cost', fmt),
    column('P1_Pub_Pln_Rev_Dlrs', fmt),
    column('P2_Pub_Pln_Units', fmt),
    column('P2_Pub_Pln_Cost', fmt),
    column('P2_Pub_Pln_Rev_Dlrs', fmt),
    dateColumn('last_updated_at', fmt.dateTime, fmt),
    column('last_updated_by', fmt),
    ...trailing,
  ];
}

/** The figures of a roll-up row in record order: the summed fields and the weighted override percents. */
const ROLLED_UP_FIELDS = DEMAND_RECORD_FIELDS.filter((s) => s.summed || s.kind === 'percent').map(
  (s) => s.field,
);

/**
 * A time bucket as the user reads it: a week in their language and date format ('Week ending
 * 11/21/2026', 'Semana que termina el 21/11/2026'); months, quarters and years as the spec's keys.
 */
function periodText(row: GridRow | undefined, fmt: Formatters): string {
  const key = row && 'periodKey' in row ? row.periodKey : undefined;
  if (!key) return row && 'periodLabel' in row ? (row.periodLabel ?? '') : '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(key))
    return i18next.t('planning:period.weekEnding', { date: fmt.date(weekEndingOf(key)) });
  return row && 'periodLabel' in row ? (row.periodLabel ?? key) : key;
}

export type GroupKey = 'PID' | 'BU' | 'PF' | 'periodLabel';

/** Group keys an aggregated page carries (absent keys are not grouped by, so get no column). */
export function groupKeysOf(rows: readonly AggregatedRow[]): GroupKey[] {
  return (['BU', 'PF', 'PID', 'periodLabel'] as const).filter((key) =>
    rows.some((row) => row[key] !== undefined && row[key] !== null),
  );
}

/**
 * Columns of a roll-up page: its group keys (groupKeysOf; the first pinned), the record count,
 * sums, weighted percents. With `edit` (a level an aggregate edit can spread at), the override
 * columns are editable in edit mode and show a refused value's reason.
 */
export function aggregatedColumns(
  keys: readonly GroupKey[],
  fmt: Formatters,
  edit?: EditState,
): ColDef<GridRow>[] {
  const spreadable = (field: string): ColDef<GridRow> => {
    // Outside edit mode a roll-up cell is its figure alone (refused values are dropped on leaving
    // edit mode, and no roll-up figure supersedes another): a text cell, with no React component
    // to draw for each of the page's cells.
    if (!edit?.isEditMode || !isOverrideField(field)) return {};
    const invalidOf: EditableCellParams['invalidOf'] = (row, name) =>
      edit.invalid?.get(invalidKeyOf(row, name));
    return {
      ...EDITORS[field],
      editable: edit.isEditMode,
      cellRenderer: EditableCell,
      cellRendererParams: { invalidOf } satisfies EditableCellParams,
      cellClassRules: {
        'dp-cell-editable': () => edit.isEditMode,
        'dp-cell-invalid': (params) =>
          params.data !== undefined && invalidOf(params.data, field) !== undefined,
      },
    };
  };
  const keyColumns = keys.map((key, index) =>
    column(key, fmt, {
      ...(index === 0 ? { pinned: 'left', minWidth: 160, cellClass: 'font-medium' } : { minWidth: 140 }),
      context: KEY_COLUMN,
      ...(key === 'periodLabel' ? { valueFormatter: (params) => periodText(params.data, fmt) } : {}),
    }),
  );
  return [
    ...keyColumns,
    column('recordCount', fmt, { minWidth: 90 }),
    ...ROLLED_UP_FIELDS.map((field) => {
      const weighted = WEIGHTED_HEADER_KEYS[field];
      // Wide enough that "(weighted)" wraps as a word, never one letter a line.
      const header = weighted ? { headerName: weighted, width: 124, minWidth: 124 } : {};
      return column(field, fmt, { ...header, ...spreadable(field) });
    }),
    column('Rank', fmt, { headerName: 'planning:column.Rank_avg', minWidth: 90 }),
    // A group's codes and comments digest many records: no order of their own on the server.
    column('Reason_Codes', fmt, {
      valueFormatter: (params) => ((params.value as string[] | undefined) ?? []).join(', '),
      minWidth: 180,
      sortable: false,
    }),
    // How many records' comments the joined text stands for (it shows at most three distinct ones).
    column('commentCount', fmt, { minWidth: 96, sortable: false }),
    column('Comments', fmt, { minWidth: 220, tooltipField: 'Comments' as never, sortable: false }),
    dateColumn('last_updated_at', fmt.dateTime, fmt),
  ];
}
