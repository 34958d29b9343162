import type { HelpRequest, HelpResponse } from '@ps/domain';
import { asData, changePercent, type Speaker } from './answer-locale';
import { forecastAccuracy, largestOverridesTool, planTotals, type ToolContext } from './ai-assistant.tools';

type Figures = {
  scope: string;
  view: string;
  drill: string;
  pending: number;
  totals?: Awaited<ReturnType<typeof planTotals>>['total'];
  overrides?: Awaited<ReturnType<typeof largestOverridesTool>>;
  accuracy?: Awaited<ReturnType<typeof forecastAccuracy>>;
};

type Written = Omit<HelpResponse, 'title'>;
type Context = HelpRequest['context'];

/** A context's fixed texts from the catalogue; `lists` are the sections that are lists of lines. */
function fixed(s: Speaker, context: Context): Written {
  const list = (section: string): string[] => {
    const lines = s.t(`help.${context}.${section}`, { returnObjects: true, defaultValue: [] });
    return Array.isArray(lines) ? (lines as string[]) : [];
  };
  return {
    summary: '',
    explanation: s.t(`help.${context}.explanation`),
    recommendations: list('recommendations'),
    nextSteps: list('nextSteps'),
    relatedConcepts: list('relatedConcepts'),
    troubleshooting: list('troubleshooting'),
  };
}

/**
 * What each context adds to its fixed texts, filled with the caller's figures: the summary, and
 * the recommendations that depend on them (docs/ai-assistant.md, "Help insights").
 */
const FIGURED: Record<Context, (s: Speaker, f: Figures) => { summary: string; recommendations?: string[] }> =
  {
    'forecast-override': (s, f) => {
      const o = f.overrides!;
      const top = o.top[0];
      const split = { up: s.units(o.positive), down: s.units(o.negative) };
      return {
        summary: s.t('help.forecast-override.summary', {
          count: o.count,
          records: s.units(o.count),
          scope: f.scope,
          impact: s.signedMoney(o.netImpact),
          pending: s.units(f.pending),
        }),
        recommendations: [
          o.positive > o.negative * 2
            ? s.t('help.forecast-override.optimism', split)
            : s.t('help.forecast-override.balanced', split),
          ...(top
            ? [
                s.t('help.forecast-override.largest', {
                  pid: asData(top.pid),
                  week: s.date(top.weekStart),
                  impact: s.signedMoney(top.impact),
                }),
              ]
            : []),
        ],
      };
    },
    'category-selection': (s, f) => ({
      summary: s.t('help.category-selection.summary', {
        scope: f.scope,
        count: f.totals!.records,
        records: s.units(f.totals!.records),
        units: s.units(f.totals!.finalUnits),
        revenue: s.money(f.totals!.finalRevenue),
      }),
    }),
    'business-unit-planning': (s, f) => ({
      summary: s.t('help.business-unit-planning.summary', {
        scope: f.scope,
        final: s.units(f.totals!.finalUnits),
        stat: s.units(f.totals!.statUnits),
        change: s.signedPercent(changePercent(f.totals!.finalUnits, f.totals!.statUnits)),
        revenue: s.money(f.totals!.finalRevenue),
      }),
      recommendations: [
        s.t('help.business-unit-planning.p1', {
          p1: s.money(f.totals!.p1Revenue),
          change: s.signedPercent(changePercent(f.totals!.finalRevenue, f.totals!.p1Revenue)),
        }),
      ],
    }),
    'time-drill-down': (s, f) => ({
      summary: s.t('help.time-drill-down.summary', {
        drill: f.drill,
        view: f.view,
        count: f.totals!.records,
        records: s.units(f.totals!.records),
      }),
    }),
    'variance-analysis': (s, f) => ({
      summary: s.t('help.variance-analysis.summary', {
        scope: f.scope,
        gap: s.signedUnits(f.totals!.finalUnits - f.totals!.statUnits),
        change: s.signedPercent(changePercent(f.totals!.finalUnits, f.totals!.statUnits)),
        p1: s.signedMoney(f.totals!.finalRevenue - f.totals!.p1Revenue),
      }),
    }),
    'data-validation': (s, f) => ({
      summary: s.t('help.data-validation.summary', {
        count: f.totals!.records,
        records: s.units(f.totals!.records),
        scope: f.scope,
        pending: s.units(f.pending),
      }),
    }),
    'excel-import': (s, f) => ({
      summary: s.t('help.excel-import.summary', {
        count: f.totals!.records,
        records: s.units(f.totals!.records),
        scope: f.scope,
      }),
    }),
    'performance-metrics': (s, f) => {
      const a = f.accuracy!;
      const pct = (value: number | null) => s.percent(value, 2);
      if (!a.total || a.total.metrics.pairs === 0)
        return { summary: s.t('help.performance-metrics.none', { lag: a.lag }) };
      const { metrics, fva } = a.total;
      return {
        summary: s.t('help.performance-metrics.summary', {
          lag: a.lag,
          accuracy: pct(metrics.accuracy),
          wape: pct(metrics.wape),
          bias: pct(metrics.bias),
          statistical: pct(fva.statistical),
          scope: f.scope,
        }),
        recommendations: [
          (fva.final ?? 0) > (fva.statistical ?? 0)
            ? s.t('help.performance-metrics.overridesHurt')
            : s.t('help.performance-metrics.overridesHelp'),
        ],
      };
    },
    'planning-workflow': (s, f) => ({
      summary: s.t('help.planning-workflow.summary', {
        scope: f.scope,
        units: s.units(f.totals!.finalUnits),
        revenue: s.money(f.totals!.finalRevenue),
        count: f.pending,
        pending: s.units(f.pending),
      }),
    }),
    'data-aggregation': (s, f) => ({
      summary: s.t('help.data-aggregation.summary', {
        view: f.view,
        drill: f.drill,
        count: f.totals!.records,
        records: s.units(f.totals!.records),
        units: s.units(f.totals!.finalUnits),
      }),
    }),
    unknown: (s, f) => ({
      summary: s.t('help.unknown.summary', {
        scope: f.scope,
        count: f.totals!.records,
        records: s.units(f.totals!.records),
        revenue: s.money(f.totals!.finalRevenue),
      }),
    }),
  };

/** Help insights: only the figures a context's text needs are read (one query, two for accuracy). */
export async function helpInsights(
  ctx: ToolContext,
  s: Speaker,
  request: HelpRequest,
): Promise<HelpResponse> {
  const filters = request.currentData?.filters ?? {};
  const filter = {
    ...(filters.bu?.length ? { bu: filters.bu } : {}),
    ...(filters.pf?.length ? { pf: filters.pf } : {}),
    ...(filters.region?.length ? { region: filters.region } : {}),
  };
  const parts = [
    filter.bu && s.t('scope.bu', { names: filter.bu.map(asData).join(', ') }),
    filter.pf && s.t('scope.pf', { names: filter.pf.map(asData).join(', ') }),
    filter.region && s.t('scope.region', { names: filter.region.map(asData).join(', ') }),
  ].filter(Boolean);
  const { context } = request;
  // Only the figures a context's text uses are read: each query is most of a help request's time.
  const usesTotals = context !== 'forecast-override' && context !== 'performance-metrics';
  const [totals, overrides, accuracy] = await Promise.all([
    usesTotals ? planTotals(ctx, filter) : undefined,
    context === 'forecast-override' ? largestOverridesTool(ctx, { ...filter, limit: 1 }) : undefined,
    context === 'performance-metrics' ? forecastAccuracy(ctx, filter) : undefined,
  ]);
  const figures: Figures = {
    scope: parts.length ? parts.join(', ') : s.t('scope.allData'),
    view: s.t(`help.viewLevel.${request.viewLevel ?? 'category'}`),
    drill: s.t(`help.drillDown.${request.drillDownType ?? 'none'}`),
    pending: request.currentData?.pendingChanges ?? 0,
    ...(totals ? { totals: totals.total } : {}),
    ...(overrides ? { overrides } : {}),
    ...(accuracy ? { accuracy } : {}),
  };
  const base = fixed(s, context);
  const figured = FIGURED[context](s, figures);
  return {
    title: s.t(`help.${context}.title`),
    ...base,
    summary: figured.summary,
    recommendations: [...base.recommendations, ...(figured.recommendations ?? [])],
  };
}
