import { Columns3Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  chooserGroupsOf,
  toggleColumn,
  type ColumnGroupId,
  type GridColumnInfo,
} from '../utils/column-choice';

const GROUP_LABEL_KEYS: Record<ColumnGroupId, string> = {
  item: 'planning:columns.group.item',
  period: 'planning:columns.group.period',
  actuals: 'planning:columns.group.actuals',
  forecast: 'planning:columns.group.forecast',
  revenuePlan: 'planning:columns.group.revenuePlan',
  finalPlan: 'planning:columns.group.finalPlan',
  notes: 'planning:columns.group.notes',
  published: 'planning:columns.group.published',
  audit: 'planning:columns.group.audit',
  other: 'planning:columns.group.other',
};

type ColumnChooserProps = {
  columns: readonly GridColumnInfo[];
  hidden: readonly string[];
  onHiddenChange: (hidden: string[]) => void;
  onReset: () => void;
};

/** The grid's Columns menu: a checkbox per column, in groups; a row's key columns always show. */
export function ColumnChooser({ columns, hidden, onHiddenChange, onReset }: ColumnChooserProps) {
  const { t } = useTranslation();
  const hiddenSet = new Set(hidden);
  const groups = chooserGroupsOf(columns);
  const shown = columns.filter((column) => column.isKey || !hiddenSet.has(column.id)).length;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" data-testid="column-chooser">
          <Columns3Icon />
          {t('planning:columns.button')}
          <span className="text-xs text-muted-foreground">
            {t('planning:columns.count', { shown, total: columns.length })}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-[70vh] w-72 overflow-y-auto">
        {groups.map((group, index) => (
          <div key={group.id} role="group" aria-label={t(GROUP_LABEL_KEYS[group.id])}>
            {index > 0 && <DropdownMenuSeparator />}
            <DropdownMenuLabel className="text-xs text-muted-foreground uppercase">
              {t(GROUP_LABEL_KEYS[group.id])}
            </DropdownMenuLabel>
            {group.columns.map((column) => (
              <DropdownMenuCheckboxItem
                key={column.id}
                checked={column.isKey || !hiddenSet.has(column.id)}
                disabled={column.isKey}
                data-column={column.id}
                // The menu stays open: a planner usually changes several columns at once.
                onSelect={(event) => event.preventDefault()}
                onCheckedChange={(checked) => onHiddenChange(toggleColumn(hidden, column.id, checked))}
              >
                {t(column.headerKey)}
              </DropdownMenuCheckboxItem>
            ))}
          </div>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onReset}>{t('planning:columns.reset')}</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
