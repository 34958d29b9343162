import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { usePlanningPolicy } from '@/features/planning-policy';
import { useFormatters } from '@/lib/settings/useFormatters';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REASON_CODES, type ReasonCode, type SpreadResult } from '@ps/domain';
import type { ProposedSpread } from '../hooks/useAggregateEdit';

type SpreadConfirmDialogProps = {
  proposed: ProposedSpread | null;
  isSaving: boolean;
  onConfirm: (reasonCode: ReasonCode | undefined) => void;
  onCancel: () => void;
};

/** Before an aggregate edit is saved: how many records it changes and how much money it moves. */
export function SpreadConfirmDialog({ proposed, isSaving, onConfirm, onCancel }: SpreadConfirmDialogProps) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  if (!proposed) return null;
  const { request, preview, row } = proposed;
  const isPercent = request.field.endsWith('_Percent');
  return (
    <SpreadPreviewDialog
      what={t('grid:spread.what', {
        field: t(`planning:column.${request.field}`),
        value: isPercent ? fmt.percent(request.value) : fmt.number(request.value),
        group: request.group,
        period: row.periodLabel ?? t('grid:spread.allPeriods'),
      })}
      preview={preview}
      isSaving={isSaving}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

type SpreadPreviewDialogProps = {
  /** The edit in words. */
  what: string;
  preview: SpreadResult;
  isSaving: boolean;
  /** With the reason code the planner chose for the records the spread changes, if any. */
  onConfirm: (reasonCode: ReasonCode | undefined) => void;
  onCancel: () => void;
};

const NO_REASON = '__none__';

/** The confirmation of one or more aggregate edits (the table's, the time-phased view's). */
export function SpreadPreviewDialog({
  what,
  preview,
  isSaving,
  onConfirm,
  onCancel,
}: SpreadPreviewDialogProps) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const { requireOverrideReason } = usePlanningPolicy();
  const [reasonCode, setReasonCode] = useState<ReasonCode | undefined>(undefined);
  const signedMoney = (value: number) => `${value > 0 ? '+' : ''}${fmt.money(value)}`;
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent data-testid="spread-confirm">
        <DialogHeader>
          <DialogTitle>{t('grid:spread.title')}</DialogTitle>
          <DialogDescription>{what}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">{t('grid:spread.records')}</dt>
          <dd data-testid="spread-records">
            {t('grid:spread.recordsValue', {
              changed: fmt.number(preview.changedRecords),
              records: fmt.number(preview.records),
              locked: fmt.number(preview.lockedRecords),
            })}
          </dd>
          <dt className="text-muted-foreground">{t('grid:spread.units')}</dt>
          <dd>
            {fmt.number(preview.unitsBefore)} → {fmt.number(preview.unitsAfter)}
          </dd>
          <dt className="text-muted-foreground">{t('grid:spread.revenue')}</dt>
          <dd data-testid="spread-revenue">{signedMoney(preview.revenueDelta)}</dd>
          <dt className="text-muted-foreground">{t('grid:spread.cost')}</dt>
          <dd>{signedMoney(preview.costDelta)}</dd>
        </dl>
        <div className="flex flex-col gap-1">
          <Label htmlFor="spread-reason-code">
            {t(requireOverrideReason ? 'grid:spread.reasonRequired' : 'grid:spread.reason')}
          </Label>
          <Select
            value={reasonCode ?? NO_REASON}
            onValueChange={(value) => setReasonCode(value === NO_REASON ? undefined : (value as ReasonCode))}
          >
            <SelectTrigger id="spread-reason-code">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_REASON}>{t('grid:spread.noReason')}</SelectItem>
              {REASON_CODES.map((code) => (
                <SelectItem key={code} value={code}>
                  {code}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {requireOverrideReason && !reasonCode && (
            <p className="text-xs text-muted-foreground">{t('grid:spread.reasonPolicy')}</p>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            {t('grid:spread.cancel')}
          </Button>
          <Button
            onClick={() => onConfirm(reasonCode)}
            disabled={
              isSaving || preview.changedRecords === 0 || (requireOverrideReason && reasonCode === undefined)
            }
          >
            {t('grid:spread.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
