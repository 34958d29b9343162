import { SAVED_VIEW_NAME_MAX, type SavedView } from '@ps/domain';
import { z } from 'zod';

/**
 * The column chooser's groups, in the grid's column order: who and when, what happened, what the
 * models say, the two override stages with the plans they make, notes, published plans, audit.
 */
export const COLUMN_GROUPS = [
  {
    id: 'item',
    columns: ['PID', 'BU', 'PF', 'Class', 'Region', 'Site', 'EntityType', 'periodLabel', 'recordCount'],
  },
  { id: 'period', columns: ['Date', 'Fiscal_Quarter', 'Rank'] },
  { id: 'actuals', columns: ['Act_Bkg_Units', 'Act_Bkg_Cost', 'Act_Rev_Dlrs'] },
  { id: 'forecast', columns: ['Naïve_Rev_Mfg_Fcst_Bk_Units', 'Ensemble_Fcst_Units'] },
  {
    id: 'revenuePlan',
    columns: [
      'Rev_Pln_Ovrd_Percent',
      'Rev_Pln_Ovrd_Units',
      'Prelim_Pln_Units',
      'Prelim_Pln_Cost',
      'Prelim_Pln_Rev_Dlrs',
    ],
  },
  {
    id: 'finalPlan',
    columns: [
      'SOP_Pln_Ovrd_Percent',
      'SOP_Pln_Ovrd_Units',
      'Final_Pln_Units',
      'Final_Bk_Pln_Cost',
      'Final_Pln_Rev_Dlrs',
      'Cost',
      'Delta_Prelim_to_Final_Pln_Units',
      'Delta_Prelim_to_Final_Pln_Cost',
      'Delta_Prelim_to_Final_Pln_Rev_Dlrs',
    ],
  },
  { id: 'notes', columns: ['Reason_Code', 'Reason_Codes', 'commentCount', 'Comments'] },
  {
    id: 'published',
    columns: [
      'P1_Pub_Pln_Units',
      'P1_Pub_Pln_Cost',
      'P1_Pub_Pln_Rev_Dlrs',
      'P2_Pub_Pln_Units',
      'P2_Pub_Pln_Cost',
      'P2_Pub_Pln_Rev_Dlrs',
    ],
  },
  { id: 'audit', columns: ['actions', 'last_updated_at', 'last_updated_by', 'lastOverriddenBy'] },
] as const;
export type ColumnGroupId = (typeof COLUMN_GROUPS)[number]['id'] | 'other';

/**
 * Hidden until the planner asks for them: at 1440 px the forecast, both overrides and the final
 * plan then fit beside the item without scrolling sideways. Costs and revenue of the intermediate
 * plans, deltas, published snapshots and the product attributes stay one click away.
 */
export const DEFAULT_HIDDEN_COLUMNS: readonly string[] = [
  'Class',
  'Region',
  'Site',
  'EntityType',
  'Fiscal_Quarter',
  'Rank',
  'Act_Bkg_Cost',
  'Act_Rev_Dlrs',
  'Naïve_Rev_Mfg_Fcst_Bk_Units',
  'recordCount',
  'Prelim_Pln_Units',
  'Prelim_Pln_Cost',
  'Prelim_Pln_Rev_Dlrs',
  'Final_Bk_Pln_Cost',
  'Cost',
  'Delta_Prelim_to_Final_Pln_Units',
  'Delta_Prelim_to_Final_Pln_Cost',
  'Delta_Prelim_to_Final_Pln_Rev_Dlrs',
  'P1_Pub_Pln_Units',
  'P1_Pub_Pln_Cost',
  'P1_Pub_Pln_Rev_Dlrs',
  'P2_Pub_Pln_Units',
  'P2_Pub_Pln_Cost',
  'P2_Pub_Pln_Rev_Dlrs',
  'last_updated_at',
];

/** A column as the grid shows it: its id, its header's catalogue key, and whether it names the row. */
export type GridColumnInfo = { id: string; headerKey: string; isKey: boolean };

export type ChooserGroup = { id: ColumnGroupId; columns: GridColumnInfo[] };

/** The grid's columns in the chooser's groups (grid order inside a group); empty groups are left out. */
export function chooserGroupsOf(columns: readonly GridColumnInfo[]): ChooserGroup[] {
  const groupOf = (id: string): ColumnGroupId =>
    COLUMN_GROUPS.find((group) => (group.columns as readonly string[]).includes(id))?.id ?? 'other';
  const order: ColumnGroupId[] = [...COLUMN_GROUPS.map((group) => group.id), 'other'];
  return order
    .map((id) => ({ id, columns: columns.filter((column) => groupOf(column.id) === id) }))
    .filter((group) => group.columns.length > 0);
}

/** Columns a page may hide: a row's key columns always show, so every row still says what it is. */
export function hiddenOn(columns: readonly GridColumnInfo[], hidden: ReadonlySet<string>): Set<string> {
  return new Set(
    columns.filter((column) => !column.isKey && hidden.has(column.id)).map((column) => column.id),
  );
}

/** Hides or shows one column; the rest of the choice stands. */
export function toggleColumn(hidden: readonly string[], id: string, isVisible: boolean): string[] {
  const rest = hidden.filter((column) => column !== id);
  return isVisible ? rest : [...rest, id];
}

const ZStoredColumns = z.object({ hidden: z.array(z.string().max(60)).max(200) });

/** Local storage key of a user's column choice: per user, as two planners may share a browser. */
export const hiddenColumnsKey = (userId: string) => `demand-planning-columns:${userId}`;

/** Reads a stored column choice; nothing stored or unreadable means the default choice. */
export function parseHiddenColumns(stored: string | null): string[] {
  if (!stored) return [...DEFAULT_HIDDEN_COLUMNS];
  try {
    const parsed = ZStoredColumns.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data.hidden : [...DEFAULT_HIDDEN_COLUMNS];
  } catch {
    return [...DEFAULT_HIDDEN_COLUMNS];
  }
}

export type ViewNameProblem = 'empty' | 'tooLong' | 'taken';

/**
 * Why a name cannot be a saved view's, as the server would refuse it: empty, over 60 characters,
 * or the name (in any case) of another of the user's views.
 */
export function viewNameProblem(
  name: string,
  views: readonly Pick<SavedView, 'id' | 'name'>[],
  ownId?: number,
): ViewNameProblem | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'empty';
  if (trimmed.length > SAVED_VIEW_NAME_MAX) return 'tooLong';
  const lower = trimmed.toLowerCase();
  if (views.some((view) => view.id !== ownId && view.name.toLowerCase() === lower)) return 'taken';
  return null;
}
