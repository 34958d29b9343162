import type { CustomCellRendererProps } from 'ag-grid-react';
import { TriangleAlertIcon } from 'lucide-react';
import { describeDateCell } from '../utils/date-markers';

export type DateCellParams = { format: (value: string) => string };

/** A date cell; a value that does not read as a plausible date shows its marker with a warning sign (spec §5). */
export function DateCell({ value, format }: CustomCellRendererProps & DateCellParams) {
  const cell = describeDateCell(value);
  switch (cell.kind) {
    case 'empty':
      return null;
    case 'valid':
      return <span>{format(value as string)}</span>;
    case 'marker':
      return (
        <span className="inline-flex items-center gap-1 text-warning" title={`Raw value: ${String(value)}`}>
          <TriangleAlertIcon className="size-3.5" aria-hidden />
          {cell.label}
        </span>
      );
  }
}
