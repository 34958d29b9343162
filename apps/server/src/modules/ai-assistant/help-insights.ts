import { HELP_CONTEXT_TITLES, type HelpRequest, type HelpResponse } from '@ps/domain';
import { asData, changePercent, fmtMoney, fmtPercent, fmtSigned, fmtUnits } from './answer-text';
import { forecastAccuracy, largestOverridesTool, planTotals, type ToolContext } from './ai-assistant.tools';

const VIEW_LEVEL_NAMES = {
  none: 'None (Show Original Table)',
  sku: 'Product ID Level',
  category: 'Product Family Level',
  business_unit: 'Business Unit Level',
} as const;
const DRILL_DOWN_NAMES = {
  none: 'None (No Time Grouping)',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
} as const;

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

/** What each context says, filled with the caller's figures (docs/ai-assistant.md, "Help insights"). */
const WRITERS: Record<HelpRequest['context'], (f: Figures) => Written> = {
  'forecast-override': (f) => ({
    summary: `${fmtUnits(f.overrides!.count)} records in ${f.scope} carry an override, net impact ${fmtSigned(f.overrides!.netImpact, fmtMoney)} against the statistical forecast; ${fmtUnits(f.pending)} edits are waiting to be saved.`,
    explanation:
      'An override replaces the statistical forecast with planner judgement: a percentage or units at the revenue (Rev) step gives the preliminary plan, and a percentage or units at the S&OP step gives the final plan. Units win over a percentage at the same step.',
    recommendations: [
      'Give every override a reason code and a short comment.',
      f.overrides!.positive > f.overrides!.negative * 2
        ? `Most overrides raise the plan (${fmtUnits(f.overrides!.positive)} up, ${fmtUnits(f.overrides!.negative)} down): check for optimism bias.`
        : `Overrides are balanced (${fmtUnits(f.overrides!.positive)} up, ${fmtUnits(f.overrides!.negative)} down).`,
      ...(f.overrides!.top[0]
        ? [
            `Review the largest first: ${asData(f.overrides!.top[0].pid)} in the week of ${f.overrides!.top[0].weekStart} (${fmtSigned(f.overrides!.top[0].impact, fmtMoney)}).`,
          ]
        : []),
    ],
    nextSteps: [
      'Switch on Edit Mode with View Level None to edit records.',
      'Save Changes, then publish the plan cycle when the review is done.',
    ],
    relatedConcepts: ['Plan chain: forecast → Prelim → Final', 'Net Impact', 'Pending Review'],
    troubleshooting: [
      'An aggregated view cannot be edited: choose View Level None and Drill Down None.',
      'A save refused as stale means someone else changed the record: refresh and edit again.',
    ],
  }),
  'category-selection': (f) => ({
    summary: `You are looking at ${f.scope}: ${fmtUnits(f.totals!.records)} demand records, final plan ${fmtUnits(f.totals!.finalUnits)} units (${fmtMoney(f.totals!.finalRevenue)}).`,
    explanation:
      'Business Unit, Product Family and Region filters narrow the grid, the export and the assistant together. Several values of one filter are combined with or, different filters with and.',
    recommendations: [
      'Plan one business unit or family at a time so overrides stay consistent.',
      'Use Select All, then clear the few values you do not need.',
    ],
    nextSteps: ['Apply the filter, then pick a View Level to see the totals of the selection.'],
    relatedConcepts: ['Product hierarchy: business unit → product family → product', 'Regions and sites'],
    troubleshooting: ['No data available: the filters may exclude every product; clear one of them.'],
  }),
  'business-unit-planning': (f) => ({
    summary: `${f.scope}: final plan ${fmtUnits(f.totals!.finalUnits)} units against a statistical forecast of ${fmtUnits(f.totals!.statUnits)} (${fmtPercent(changePercent(f.totals!.finalUnits, f.totals!.statUnits))}); revenue ${fmtMoney(f.totals!.finalRevenue)}.`,
    explanation:
      'At Business Unit Level each row sums the records of one business unit; a change of plan shows in its Final columns once the records below are overridden.',
    recommendations: [
      'Compare each business unit’s final plan with the published P1 plan before the next cycle.',
      `The published P1 plan holds ${fmtMoney(f.totals!.p1Revenue)} for this scope (${fmtPercent(changePercent(f.totals!.finalRevenue, f.totals!.p1Revenue))} to the final plan).`,
    ],
    nextSteps: ['Drill down Quarterly to see where in the year the business unit’s plan moves.'],
    relatedConcepts: ['Consensus plan', 'Top-down vs bottom-up planning'],
    troubleshooting: ['Totals differ from the product view only when filters differ: check the filter bar.'],
  }),
  'time-drill-down': (f) => ({
    summary: `Drill down ${f.drill} at ${f.view}: the rows group the weeks of ${fmtUnits(f.totals!.records)} records into periods.`,
    explanation:
      'Each record is one product in one week, starting on Sunday; a week belongs to the month, quarter and year of its Sunday. Weekly, Monthly, Quarterly and Yearly sum those weeks.',
    recommendations: ['Use Quarterly to compare with published plans, Weekly to edit near-term weeks.'],
    nextSteps: ['Pick None (No Time Grouping) and View Level None to edit single records.'],
    relatedConcepts: ['Fiscal quarter', 'Planning horizon', 'Time buckets'],
    troubleshooting: ['A partial first or last period holds fewer weeks: compare like with like.'],
  }),
  'variance-analysis': (f) => ({
    summary: `Final plan vs statistical forecast in ${f.scope}: ${fmtSigned(f.totals!.finalUnits - f.totals!.statUnits, fmtUnits)} units (${fmtPercent(changePercent(f.totals!.finalUnits, f.totals!.statUnits))}); final revenue vs the published P1 plan: ${fmtSigned(f.totals!.finalRevenue - f.totals!.p1Revenue, fmtMoney)}.`,
    explanation:
      'Variance is the final plan minus a reference: the statistical forecast (what the overrides changed) or the last published plan (what changed since the business saw it).',
    recommendations: [
      'Explain large variances with a reason code before publishing.',
      'Ask the assistant "Where is the plan above or below the forecast?" for the breakdown.',
    ],
    nextSteps: ['Sort the grid by the Delta columns to find the biggest moves.'],
    relatedConcepts: ['Forecast value added', 'Plan vs forecast gap', 'Net Impact'],
    troubleshooting: ['A variance with no override comes from a new forecast run: check the run’s date.'],
  }),
  'data-validation': (f) => ({
    summary: `${fmtUnits(f.totals!.records)} records in ${f.scope}; ${fmtUnits(f.pending)} unsaved edits.`,
    explanation:
      'Overrides are checked when saved: percentages 0 to 100 with 2 decimals, units whole and not negative, comments at most 500 characters, a reason code from the list.',
    recommendations: ['Save in small batches so a refused value is easy to find.'],
    nextSteps: ['Fix the value the error message names, then Save Changes again.'],
    relatedConcepts: ['Reason codes', 'Audit trail'],
    troubleshooting: ['"No Valid Changes" means every edit kept its old value.'],
  }),
  'excel-import': (f) => ({
    summary: `Imports add to the ${fmtUnits(f.totals!.records)} records of ${f.scope}.`,
    explanation:
      'Import accepts .xlsx, .xls and .csv files with sku, category and businessUnit columns (any case).',
    recommendations: ['Start from the downloaded template so the columns match.'],
    nextSteps: ['Preview the file, then confirm the import.'],
    relatedConcepts: ['Import template', 'Bulk changes'],
    troubleshooting: ['"Missing required columns" lists the columns to add.', 'An empty file is refused.'],
  }),
  'performance-metrics': (f) => ({
    summary: `Statistical forecast error (WAPE) ${fmtPercent(f.accuracy!.total.forecastWape).replace('+', '')}, bias ${fmtPercent(f.accuracy!.total.forecastBias)}; final plan error ${fmtPercent(f.accuracy!.total.planWape).replace('+', '')}, bias ${fmtPercent(f.accuracy!.total.planBias)} (${f.scope}, past weeks).`,
    explanation:
      'WAPE = Σ|forecast − actual| / Σ actual over past weeks; bias = Σ(forecast − actual) / Σ actual, positive when the forecast was too high. The dashboard cards compare quarter revenue with the previous quarter, the previous year and the published plans.',
    recommendations: [
      (f.accuracy!.total.planWape ?? 0) > (f.accuracy!.total.forecastWape ?? 0)
        ? 'The final plan is less accurate than the statistical forecast: overrides are removing value.'
        : 'The final plan is at least as accurate as the statistical forecast: overrides add value.',
    ],
    nextSteps: ['Ask the assistant "How accurate is our forecast?" for the breakdown by business unit.'],
    relatedConcepts: ['WAPE', 'Bias', 'Forecast value added'],
    troubleshooting: ['Accuracy needs past weeks with actuals; a new product has none yet.'],
  }),
  'planning-workflow': (f) => ({
    summary: `Plan of ${f.scope}: ${fmtUnits(f.totals!.finalUnits)} units, ${fmtMoney(f.totals!.finalRevenue)} final revenue; ${fmtUnits(f.pending)} unsaved edits.`,
    explanation:
      'A cycle: a forecast run refreshes the statistical forecast, planners override it with reasons, reviewers check Pending Review, an admin publishes (Final → P1, P1 → P2).',
    recommendations: ['Save before leaving the page; publish only after reviewing pending overrides.'],
    nextSteps: ['Review overrides', 'Save Changes', 'Publish the plan cycle'],
    relatedConcepts: ['S&OP cycle', 'Plan versions P1 and P2'],
    troubleshooting: ['Publish is refused while a forecast run is going: wait for it to finish.'],
  }),
  'data-aggregation': (f) => ({
    summary: `${f.view} with ${f.drill}: ${fmtUnits(f.totals!.records)} records summed; final plan ${fmtUnits(f.totals!.finalUnits)} units.`,
    explanation:
      'Aggregated rows sum units and money of their records; percentages are weighted by final plan units. The database keeps the sums exact as records change.',
    recommendations: ['Read at Product Family Level, edit at None.'],
    nextSteps: ['Change View Level to regroup; the first page loads again.'],
    relatedConcepts: ['Roll-up', 'Weighted average'],
    troubleshooting: ['Aggregated rows cannot be edited: switch to View Level None.'],
  }),
  unknown: (f) => ({
    summary: `${f.scope}: ${fmtUnits(f.totals!.records)} records, final plan ${fmtMoney(f.totals!.finalRevenue)}.`,
    explanation:
      'Open the assistant (bottom right) to ask about totals, variance, overrides, accuracy or a what-if.',
    recommendations: [],
    nextSteps: [],
    relatedConcepts: [],
    troubleshooting: [],
  }),
};

/** Help insights: only the figures a context's text needs are read (one to three queries). */
export async function helpInsights(ctx: ToolContext, request: HelpRequest): Promise<HelpResponse> {
  const filters = request.currentData?.filters ?? {};
  const filter = {
    ...(filters.bu?.length ? { bu: filters.bu } : {}),
    ...(filters.pf?.length ? { pf: filters.pf } : {}),
    ...(filters.region?.length ? { region: filters.region } : {}),
  };
  const parts = [
    filter.bu && `business unit ${filter.bu.map(asData).join(', ')}`,
    filter.pf && `family ${filter.pf.map(asData).join(', ')}`,
    filter.region && `region ${filter.region.map(asData).join(', ')}`,
  ].filter(Boolean);
  // Only the figures a context's text uses are read: each query is most of a help request's time.
  const usesTotals = request.context !== 'forecast-override' && request.context !== 'performance-metrics';
  const [totals, overrides, accuracy] = await Promise.all([
    usesTotals ? planTotals(ctx, filter) : undefined,
    request.context === 'forecast-override' ? largestOverridesTool(ctx, { ...filter, limit: 1 }) : undefined,
    request.context === 'performance-metrics' ? forecastAccuracy(ctx, filter) : undefined,
  ]);
  const figures: Figures = {
    scope: parts.length ? parts.join(', ') : 'all your data',
    view: VIEW_LEVEL_NAMES[request.viewLevel ?? 'category'],
    drill: DRILL_DOWN_NAMES[request.drillDownType ?? 'none'],
    pending: request.currentData?.pendingChanges ?? 0,
    ...(totals ? { totals: totals.total } : {}),
    ...(overrides ? { overrides } : {}),
    ...(accuracy ? { accuracy } : {}),
  };
  return { title: HELP_CONTEXT_TITLES[request.context], ...WRITERS[request.context](figures) };
}
