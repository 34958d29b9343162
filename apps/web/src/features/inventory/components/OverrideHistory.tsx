import { INVENTORY_REASON_CODES, type InventoryAuditEntry, type InventoryReasonCode } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { HistoryIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { fetchOverrideHistory, inventoryKeys } from '../inventory-api';
import { reasonLabelKey } from '../reason-labels';

/** Catalogue keys of the audited fields (inventory.service applyChange). */
const FIELD_KEYS: Record<string, string> = {
  overrideOULUnits: 'inventory:table.overrideUnits',
  overridePercentage: 'inventory:table.overridePercent',
  reasonCode: 'inventory:table.reasonCode',
  comments: 'inventory:table.comments',
};

/** One confirm writes a row per changed field with the same time and user: shown together. */
type Change = {
  at: string;
  by: string;
  reasonCode: string | null;
  comments: string | null;
  fields: InventoryAuditEntry[];
};

function groupChanges(entries: readonly InventoryAuditEntry[]): Change[] {
  const changes: Change[] = [];
  for (const entry of entries) {
    const last = changes.at(-1);
    if (last && last.at === entry.changedAt && last.by === entry.changedBy) last.fields.push(entry);
    else
      changes.push({
        at: entry.changedAt,
        by: entry.changedBy,
        reasonCode: entry.reasonCode,
        comments: entry.comments,
        fields: [entry],
      });
  }
  return changes;
}

const isReason = (value: string): value is InventoryReasonCode =>
  (INVENTORY_REASON_CODES as readonly string[]).includes(value);

/** A row's override history (the inventory_audit trail): who, when, old → new, reason and comment. */
export function OverrideHistory({ sku, site }: { sku: string; site: string }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const [open, setOpen] = useState(false);
  const history = useQuery({
    queryKey: inventoryKeys.history(sku, site),
    queryFn: () => fetchOverrideHistory(sku, site),
    enabled: open,
  });
  const valueText = (field: string, value: string | null): string => {
    if (value === null || value === '') return t('inventory:history.none');
    if (field === 'reasonCode' && isReason(value)) return t(reasonLabelKey(value));
    if (field === 'overrideOULUnits') return fmt.number(Number(value));
    if (field === 'overridePercentage') return `${fmt.number(Number(value), 1)}%`;
    return value;
  };
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => setOpen(true)}
        aria-label={t('inventory:history.open', { sku, site })}
      >
        <HistoryIcon aria-hidden />
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-3xl" data-testid="override-history">
          <DialogHeader>
            <DialogTitle>{t('inventory:history.title', { sku, site })}</DialogTitle>
            <DialogDescription>{t('inventory:history.description')}</DialogDescription>
          </DialogHeader>
          {history.isLoading && (
            <p className="text-sm text-muted-foreground">{t('inventory:table.loading')}</p>
          )}
          {history.error && (
            <p className="text-sm text-destructive" role="alert">
              {errorText(history.error)}
            </p>
          )}
          {history.data?.length === 0 && (
            <p className="text-sm text-muted-foreground">{t('inventory:history.empty')}</p>
          )}
          {history.data && history.data.length > 0 && (
            <div className="max-h-[60vh] overflow-auto">
              <table className="w-full text-sm">
                <thead>
                  <tr className="border-b border-border text-left text-xs text-muted-foreground">
                    <th className="px-2 py-2 font-medium">{t('inventory:history.when')}</th>
                    <th className="px-2 py-2 font-medium">{t('inventory:history.who')}</th>
                    <th className="px-2 py-2 font-medium">{t('inventory:history.change')}</th>
                    <th className="px-2 py-2 font-medium">{t('inventory:table.reasonCode')}</th>
                    <th className="px-2 py-2 font-medium">{t('inventory:table.comments')}</th>
                  </tr>
                </thead>
                <tbody>
                  {groupChanges(history.data).map((change) => (
                    <tr
                      key={`${change.at}|${change.by}`}
                      className="border-b border-border align-top last:border-0"
                    >
                      <td className="whitespace-nowrap px-2 py-2">{fmt.dateTime(change.at)}</td>
                      <td className="px-2 py-2">{change.by}</td>
                      <td className="px-2 py-2">
                        {change.fields.map((entry) => (
                          <span key={entry.field} className="block" data-testid="history-field">
                            {t(FIELD_KEYS[entry.field] ?? entry.field)}:{' '}
                            {t('inventory:history.oldToNew', {
                              old: valueText(entry.field, entry.oldValue),
                              new: valueText(entry.field, entry.newValue),
                            })}
                          </span>
                        ))}
                      </td>
                      <td className="px-2 py-2">{valueText('reasonCode', change.reasonCode)}</td>
                      <td className="max-w-56 break-words px-2 py-2">
                        {change.comments || t('inventory:history.none')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
