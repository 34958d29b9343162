import type { CostBreakdown as Costs } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/lib/settings/useFormatters';

/** Catalogue keys of the cost components, in the order of the objective. */
export const COST_LABELS = {
  production: 'optichain:cost.production',
  inboundTransport: 'optichain:cost.inboundTransport',
  handling: 'optichain:cost.handling',
  outboundTransport: 'optichain:cost.outboundTransport',
  fixed: 'optichain:cost.fixed',
  unmetPenalty: 'optichain:cost.unmetPenalty',
  total: 'optichain:cost.total',
} as const;

const COMPONENTS = [
  'production',
  'inboundTransport',
  'handling',
  'outboundTransport',
  'fixed',
  'unmetPenalty',
] as const;

/** Each cost component as a bar with its amount and share of the total. */
export function CostBreakdown({ costs }: { costs: Costs }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <div className="flex flex-col gap-3" data-testid="cost-breakdown">
      {COMPONENTS.map((component) => {
        const share = costs.total > 0 ? (costs[component] / costs.total) * 100 : 0;
        return (
          <div key={component} className="flex flex-col gap-1">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span>{t(COST_LABELS[component])}</span>
              <span className="tabular-nums">
                {format.currency(costs[component], 0)}
                <span className="ml-2 text-xs text-muted-foreground">{format.percent(share)}</span>
              </span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-muted">
              <div className="h-full rounded-full bg-primary" style={{ width: `${Math.min(100, share)}%` }} />
            </div>
          </div>
        );
      })}
      <div className="flex items-baseline justify-between border-t border-border pt-2 text-sm font-semibold">
        <span>{t(COST_LABELS.total)}</span>
        <span className="tabular-nums">{format.currency(costs.total, 0)}</span>
      </div>
    </div>
  );
}
