import { overrideSupersededBy, type GridRow } from '@ps/domain';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** A value the planner typed that the rules refused, with the reason, kept at its cell until fixed. */
export type InvalidEdit = { raw: string; message: string };

export type EditableCellParams = {
  /** The refused edit of this cell, if any. */
  invalidOf: (row: GridRow, field: string) => InvalidEdit | undefined;
};

/**
 * An editable cell: its formatted value; a refused edit shows the reason in the cell (never
 * silently dropped); a percent override that the units override of its stage replaces reads greyed
 * with a tooltip saying why.
 */
export function EditableCell(props: CustomCellRendererProps & EditableCellParams) {
  const { t } = useTranslation();
  const row = props.data as GridRow | undefined;
  const field = props.colDef?.field ?? '';
  const invalid = row ? props.invalidOf(row, field) : undefined;
  if (invalid) {
    return (
      <span
        className="inline-flex max-w-full items-center gap-1 font-medium text-destructive"
        title={t('grid:invalid.tooltip', { value: invalid.raw, reason: invalid.message })}
        data-testid="invalid-cell"
        role="alert"
      >
        <CircleAlertIcon className="size-3.5 shrink-0" aria-hidden />
        <span className="truncate">{invalid.message}</span>
      </span>
    );
  }
  // An aggregated row sums many records' overrides: neither of its figures replaces the other.
  const record = row && !('id' in row) ? row : undefined;
  const supersededBy = record ? overrideSupersededBy(record, field) : null;
  if (supersededBy) {
    return (
      <span
        className="text-muted-foreground line-through decoration-muted-foreground/60"
        title={t('grid:superseded', { field: t(`planning:column.${supersededBy}`) })}
        data-testid="superseded-cell"
      >
        {props.valueFormatted ?? ''}
      </span>
    );
  }
  return <span>{props.valueFormatted ?? ''}</span>;
}
