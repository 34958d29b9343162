import {
  INVENTORY_REASON_CODES,
  type InventoryPage,
  type InventoryReasonCode,
  type InventoryRow,
} from '@ps/domain';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { reasonLabelKey } from '../reason-labels';
import { OverrideHistory } from './OverrideHistory';
import { draftOf, isModified, withPercent, withUnits, type Draft } from '../drafts';

const NO_REASON = '__none__';
const INPUT =
  'h-8 rounded-md border border-input bg-background px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring';

type Props = {
  page: InventoryPage | undefined;
  isLoading: boolean;
  loadError: unknown;
  drafts: Record<string, { row: InventoryRow; draft: Draft }>;
  pendingCount: number;
  isSaving: boolean;
  onDraft: (row: InventoryRow, draft: Draft) => void;
  onConfirm: (row: InventoryRow, draft: Draft) => void;
  onBulkConfirm: () => void;
  onPage: (page: number) => void;
};

/** Inventory Override Table (spec §2, §9: 20 rows a page, rows 50 px, header 60 px). */
export function OverrideTable(props: Props) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const { page } = props;
  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;
  // Figures that belong together share a column (demand and its spread; lead time, review and
  // replenishment) and the three service levels' OULs show on the recommended one's hover, so the
  // table fits its card at 1440 px with the override columns and actions on screen.
  const headers = [
    t('inventory:table.sku'),
    t('inventory:table.site'),
    t('inventory:table.category'),
    t('inventory:table.demand'),
    t('inventory:table.leadReview'),
    t('inventory:table.onHand'),
    t('inventory:table.recommended'),
    t('inventory:table.overrideUnits'),
    t('inventory:table.overridePercent'),
    t('inventory:table.reasonCode'),
    t('inventory:table.comments'),
    t('inventory:table.actions'),
  ];
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 pb-2">
        <div className="flex items-center gap-2">
          <CardTitle className="text-base">{t('inventory:table.title')}</CardTitle>
          <Badge variant={props.pendingCount > 0 ? 'default' : 'outline'} data-testid="pending-counter">
            {t('inventory:table.pending', { count: props.pendingCount })}
          </Badge>
        </div>
        <Button size="sm" disabled={props.pendingCount === 0 || props.isSaving} onClick={props.onBulkConfirm}>
          <CheckIcon aria-hidden />
          {t('inventory:table.bulkConfirm')}
        </Button>
      </CardHeader>
      <CardContent>
        {props.loadError ? (
          <p className="text-sm text-destructive" role="alert">
            {errorText(props.loadError)}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="inventory-table">
              <thead>
                <tr className="h-[60px] border-b border-border text-left text-xs text-muted-foreground">
                  {headers.map((header) => (
                    <th key={header} scope="col" className="whitespace-normal px-2 font-medium">
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {props.isLoading && (
                  <tr className="h-[50px]">
                    <td colSpan={headers.length} className="px-2 text-muted-foreground">
                      {t('inventory:table.loading')}
                    </td>
                  </tr>
                )}
                {page?.items.length === 0 && (
                  <tr className="h-[50px]">
                    <td colSpan={headers.length} className="px-2 text-muted-foreground">
                      {t('inventory:table.empty')}
                    </td>
                  </tr>
                )}
                {page?.items.map((row) => {
                  const entry = props.drafts[row.id];
                  // A draft made on an older version of the row is dropped once the row moved on.
                  const draft = entry && entry.row.version === row.version ? entry.draft : draftOf(row);
                  const modified = isModified(row, draft);
                  const invalid =
                    draft.overrideOULUnits !== null &&
                    (!Number.isInteger(draft.overrideOULUnits) ||
                      draft.overrideOULUnits < 0 ||
                      !draft.reasonCode);
                  return (
                    <tr
                      key={row.id}
                      data-testid={`inventory-row-${row.sku}-${row.site}`}
                      data-modified={modified}
                      className={cn('h-[50px] border-b border-border', modified && 'bg-primary/10')}
                    >
                      <td className="px-2 font-medium">{row.sku}</td>
                      <td className="px-2">
                        {row.site}
                        <span className="block text-xs text-muted-foreground">{row.region}</span>
                      </td>
                      <td className="px-2">
                        {row.category}
                        <span className="block text-xs text-muted-foreground">{row.businessUnit}</span>
                      </td>
                      <td className="px-2 text-right whitespace-nowrap">
                        {fmt.number(row.avgDemand, 1)}
                        <span className="block text-xs text-muted-foreground">
                          ± {fmt.number(row.stdDemand, 1)}
                        </span>
                      </td>
                      <td className="px-2 text-right whitespace-nowrap">
                        {fmt.number(row.leadTime)} ± {fmt.number(row.leadTimeSd, 1)}
                        <span className="block text-xs text-muted-foreground">
                          {fmt.number(row.reviewPeriod)} / {fmt.number(row.replenishmentFreq)}
                        </span>
                      </td>
                      <td className="px-2 text-right">{fmt.number(row.onHand)}</td>
                      <td
                        className="px-2 text-right font-semibold"
                        title={t('inventory:table.ouls', {
                          oul90: fmt.number(row.targetOUL90),
                          oul95: fmt.number(row.targetOUL95),
                          oul98: fmt.number(row.targetOUL98),
                        })}
                      >
                        {fmt.number(row.recommendedOULTarget)}
                        <span className="block text-xs font-normal text-muted-foreground">
                          {t('inventory:table.serviceLevel', { level: row.recommendedServiceLevel })}
                          {row.safetyStock !== null && row.safetyStockNormal !== null && (
                            <span
                              className="ml-1"
                              data-testid="safety-stock"
                              title={t('inventory:table.safetyStockTitle', {
                                units: fmt.number(row.safetyStock),
                                level: row.recommendedServiceLevel,
                                normal: fmt.number(row.safetyStockNormal),
                                change: signedUnits(row.safetyStock - row.safetyStockNormal, fmt.number),
                              })}
                            >
                              {t('inventory:table.safetyStock', {
                                units: fmt.number(row.safetyStock),
                                change: signedUnits(row.safetyStock - row.safetyStockNormal, fmt.number),
                              })}
                            </span>
                          )}
                        </span>
                      </td>
                      <td className="px-2">
                        <input
                          type="number"
                          min={0}
                          step={1}
                          aria-label={t('inventory:table.overrideUnitsFor', { sku: row.sku, site: row.site })}
                          className={cn(INPUT, 'w-16 text-right')}
                          value={draft.overrideOULUnits ?? ''}
                          onChange={(e) =>
                            props.onDraft(row, withUnits(draft, e.target.value, row.recommendedOULTarget))
                          }
                        />
                      </td>
                      <td className="px-2">
                        <input
                          type="number"
                          min={0}
                          max={1000}
                          step={0.1}
                          aria-label={t('inventory:table.overridePercentFor', {
                            sku: row.sku,
                            site: row.site,
                          })}
                          className={cn(INPUT, 'w-16 text-right')}
                          value={draft.overridePercentage ?? ''}
                          onChange={(e) =>
                            props.onDraft(row, withPercent(draft, e.target.value, row.recommendedOULTarget))
                          }
                        />
                      </td>
                      <td className="px-2">
                        <Select
                          value={draft.reasonCode ?? NO_REASON}
                          onValueChange={(value) =>
                            props.onDraft(row, {
                              ...draft,
                              reasonCode: value === NO_REASON ? null : (value as InventoryReasonCode),
                            })
                          }
                        >
                          <SelectTrigger
                            className="h-8 w-28"
                            aria-label={t('inventory:table.reasonFor', { sku: row.sku, site: row.site })}
                          >
                            <SelectValue />
                          </SelectTrigger>
                          <SelectContent>
                            <SelectItem value={NO_REASON}>{t('inventory:table.noReason')}</SelectItem>
                            {INVENTORY_REASON_CODES.map((code) => (
                              <SelectItem key={code} value={code}>
                                {t(reasonLabelKey(code))}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                      </td>
                      <td className="px-2">
                        <input
                          type="text"
                          maxLength={500}
                          aria-label={t('inventory:table.commentsFor', { sku: row.sku, site: row.site })}
                          className={cn(INPUT, 'w-24')}
                          value={draft.comments ?? ''}
                          onChange={(e) => props.onDraft(row, { ...draft, comments: e.target.value })}
                        />
                      </td>
                      <td className="px-2">
                        <div className="flex gap-1">
                          <Button
                            size="sm"
                            disabled={!modified || invalid || props.isSaving}
                            onClick={() => props.onConfirm(row, draft)}
                            aria-label={t('inventory:table.confirmFor', { sku: row.sku, site: row.site })}
                            title={t('inventory:table.confirm')}
                          >
                            <CheckIcon aria-hidden />
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            disabled={draft.overrideOULUnits === null}
                            onClick={() => props.onDraft(row, withUnits(draft, '', row.recommendedOULTarget))}
                            aria-label={t('inventory:table.clearFor', { sku: row.sku, site: row.site })}
                          >
                            <XIcon aria-hidden />
                          </Button>
                          <OverrideHistory sku={row.sku} site={row.site} />
                        </div>
                        {row.overrideUser && (
                          <span
                            className="block max-w-28 text-xs text-muted-foreground"
                            data-testid="override-by"
                          >
                            {t('inventory:table.overrideBy', {
                              user: row.overrideUser,
                              time: fmt.dateTime(row.overrideTimestamp),
                            })}
                          </span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {page && (
          <div className="mt-3 flex items-center justify-end gap-2 text-sm">
            <span className="text-muted-foreground">
              {t('inventory:table.pageOf', { page: page.page, pages, total: fmt.number(page.total) })}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={page.page <= 1}
              onClick={() => props.onPage(page.page - 1)}
              aria-label={t('inventory:table.previous')}
            >
              <ChevronLeftIcon aria-hidden />
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={page.page >= pages}
              onClick={() => props.onPage(page.page + 1)}
              aria-label={t('inventory:table.next')}
            >
              <ChevronRightIcon aria-hidden />
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** A difference in units with its sign: +12, −30, 0. */
function signedUnits(value: number, format: (value: number) => string): string {
  const rounded = Math.round(value);
  if (rounded === 0) return '0';
  return rounded > 0 ? `+${format(rounded)}` : `−${format(-rounded)}`;
}
