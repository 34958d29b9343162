import type { CustomCellRendererProps } from 'ag-grid-react';
import { TriangleAlertIcon } from 'lucide-react';
import { describeDateCell } from '../utils/date-markers';
import { useTranslation } from 'react-i18next';

/** Catalogue keys of the markers of dates that do not read as real days. */
const DATE_MARKER_KEYS = {
  'Corrupted Date': 'planning:dateCell.corrupted',
  'Invalid Date': 'planning:dateCell.invalid',
  'Parse Error': 'planning:dateCell.parseError',
} as const;

export type DateCellParams = { format: (value: string) => string };

/** A date cell; a value that does not read as a plausible date shows its marker with a warning sign (spec §5). */
export function DateCell({ value, format }: CustomCellRendererProps & DateCellParams) {
  const cell = describeDateCell(value);
  const { t } = useTranslation();
  switch (cell.kind) {
    case 'empty':
      return null;
    case 'valid':
      return <span>{format(value as string)}</span>;
    case 'marker':
      return (
        <span
          className="inline-flex items-center gap-1 text-warning"
          title={t('planning:dateCell.raw', { value: String(value) })}
        >
          <TriangleAlertIcon className="size-3.5" aria-hidden />
          {t(DATE_MARKER_KEYS[cell.label])}
        </span>
      );
  }
}
