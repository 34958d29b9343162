import {
  GREETING_SCENARIO,
  parseQuestion,
  type ChatContext,
  type ParsedQuestion,
  type ScenarioPreview,
} from '@ps/domain';
import { asData, changePercent, fmtMoney, fmtPercent, fmtSigned, fmtUnits, table } from './answer-text';
import type { Vocabulary } from './ai-assistant.repository';
import {
  comparePlanVersions,
  explainRecord,
  forecastAccuracy,
  largestOverridesTool,
  planTotals,
  whatIfScenario,
  type ToolContext,
} from './ai-assistant.tools';

/**
 * The offline analyst: reads a question with the documented grammar (packages/domain/src/ai/
 * question.ts, docs/ai-assistant.md), calls the grounded tools and writes the answer with the
 * figures they return, saying which data it used. No model, no network.
 */
export type AnalystAnswer = { text: string; scenario: ScenarioPreview | null };

type Scope = { bu?: string[]; pf?: string[]; region?: string[]; pid?: string };

/** The question's own names win over the page's filters; the page's filters narrow the rest. */
function scopeOf(parsed: ParsedQuestion, context: ChatContext): Scope {
  const page = context.filters ?? {};
  const scope: Scope = {};
  const bu = parsed.bu ? [parsed.bu] : page.bu;
  const pf = parsed.pf ? [parsed.pf] : page.pf;
  const region = parsed.region ? [parsed.region] : page.region;
  if (bu?.length) scope.bu = bu;
  if (pf?.length) scope.pf = pf;
  if (region?.length) scope.region = region;
  if (parsed.pid) scope.pid = parsed.pid;
  return scope;
}

function periodKey(parsed: ParsedQuestion): string | undefined {
  if (parsed.quarter)
    return parsed.quarter.year ? `${parsed.quarter.year}-Q${parsed.quarter.q}` : `Q${parsed.quarter.q}`;
  if (parsed.month) {
    const year = parsed.month.year;
    return year ? `${year}-${String(parsed.month.m).padStart(2, '0')}` : undefined;
  }
  return undefined;
}

function describeScope(scope: Scope): string {
  const parts: string[] = [];
  if (scope.pid) parts.push(`product ${asData(scope.pid)}`);
  if (scope.bu) parts.push(`business unit ${scope.bu.map(asData).join(', ')}`);
  if (scope.pf) parts.push(`family ${scope.pf.map(asData).join(', ')}`);
  if (scope.region) parts.push(`region ${scope.region.map(asData).join(', ')}`);
  return parts.length ? parts.join('; ') : 'all data you can see';
}

const periodText = (period: { label: string } | null): string =>
  period ? period.label : 'all weeks of the plan';

export const CAPABILITIES = [
  '- **Totals**: "Total plan revenue for Pumps & Flow in Q1"',
  '- **Variance**: "Where is the plan above or below the forecast?"',
  '- **Overrides**: "Largest overrides in EMEA" or "What are the best practices for overrides?"',
  '- **Accuracy**: "How accurate is our forecast for Industrial Valves?"',
  '- **Actuals**: "How should I interpret the actuals?"',
  '- **One record**: "Explain PRD-00042 week 2026-11-15"',
  '- **Plan versions**: "Compare the last two plan versions"',
  '- **What-if**: "What if demand is up 15% in Q3 for Instrumentation?"',
].join('\n');

export class OfflineAnalyst {
  constructor(private readonly ctx: ToolContext) {}

  async answer(question: string, context: ChatContext, vocabulary: Vocabulary): Promise<AnalystAnswer> {
    const parsed = parseQuestion(question, vocabulary);
    const scope = scopeOf(parsed, context);
    const period = periodKey(parsed);
    const none = (text: string): AnalystAnswer => ({ text, scenario: null });
    switch (parsed.intent) {
      case 'scenario':
        return this.scenario(parsed, scope);
      case 'compare':
        return none(await this.compare());
      case 'explain':
        return none(await this.explain(parsed));
      case 'accuracy':
        return none(await this.accuracy(scope));
      case 'best-practices':
        return none(await this.bestPractices(scope, period));
      case 'overrides':
        return none(await this.overrides(scope, period));
      case 'variance':
        return none(await this.variance(scope, period));
      case 'actuals':
        return none(await this.actuals(scope, period));
      case 'totals':
        return none(await this.totals(scope, period));
      case 'unknown':
        return none(
          `I answer from your plan's own figures, and I could not read that question. I can answer:\n\n${CAPABILITIES}\n\nName a business unit, family, region, product id, quarter (Q3, 2026-Q3) or month (March 2027) to narrow any of them.`,
        );
    }
  }

  private async scenario(parsed: ParsedQuestion, scope: Scope): Promise<AnalystAnswer> {
    const name =
      parsed.scenarioName ?? `Demand ${parsed.percent! >= 0 ? 'up' : 'down'} ${Math.abs(parsed.percent!)}%`;
    const quarter = parsed.quarter
      ? parsed.quarter.year
        ? `${parsed.quarter.year}-Q${parsed.quarter.q}`
        : `Q${parsed.quarter.q}`
      : `Q${GREETING_SCENARIO.quarter}`;
    const preview = await whatIfScenario(this.ctx, {
      name,
      percent: parsed.percent!,
      period: quarter,
      ...(scope.bu?.[0] ? { bu: scope.bu[0] } : {}),
      ...(scope.pf?.[0] ? { pf: scope.pf[0] } : {}),
    });
    const { before, after } = preview;
    const row = (label: string, b: number, a: number, f: (v: number) => string) => [
      label,
      f(b),
      f(a),
      fmtPercent(changePercent(a, b)),
    ];
    const where = preview.bu
      ? `business unit ${asData(preview.bu)}`
      : preview.pf
        ? `family ${asData(preview.pf)}`
        : 'every business unit you can see';
    const lines = [
      `**Scenario ${asData(preview.name)}**: final plan demand ${fmtPercent(preview.percent)} in **${preview.quarter}** for ${where}.`,
      '',
      table(
        ['Measure', 'Before', 'After', 'Change'],
        [
          row('Units', before.units, after.units, fmtUnits),
          row('Revenue', before.revenue, after.revenue, fmtMoney),
          row('Cost', before.cost, after.cost, fmtMoney),
          row('Margin', before.margin, after.margin, fmtMoney),
        ],
      ),
      '',
      `Data used: the final plan units of ${fmtUnits(preview.records)} demand records in the weeks of ${preview.quarter}, each scaled and rounded to whole units, valued at its product's unit cost and price. Nothing is saved: confirm below to save it as SOP unit overrides (audited, reason Strategic Initiative).`,
    ];
    if (preview.records === 0)
      lines.push(
        '',
        'No record of that scope holds a final plan in that quarter, so there is nothing to change.',
      );
    if (/end user/i.test(preview.name) && !preview.bu && !preview.pf)
      lines.push(
        '',
        '"End User" is not a dimension of the plan data, so the scenario covers all the records you can see.',
      );
    return { text: lines.join('\n'), scenario: preview.records > 0 ? preview : null };
  }

  private async compare(): Promise<string> {
    const result = await comparePlanVersions(this.ctx);
    if (result.latest.length === 0)
      return 'No plan version has been published yet, so there is nothing to compare.';
    const rows = result.quarters.map((q) => [
      q.quarter,
      fmtMoney(q.previous),
      fmtMoney(q.latest),
      fmtSigned(q.latest - q.previous, fmtMoney),
      fmtPercent(changePercent(q.latest, q.previous)),
    ]);
    const names = (list: typeof result.latest) =>
      list.map((v) => `${asData(v.label)} (${v.clientId})`).join(', ');
    return [
      `**Latest plan version** ${names(result.latest)} against the **one before** ${names(result.previous) || 'none'}, final plan revenue by quarter:`,
      '',
      table(['Quarter', 'Previous', 'Latest', 'Change', 'Change %'], rows),
      '',
      'Data used: the totals by quarter recorded with each published plan version (plan_versions), summed over your clients.',
    ].join('\n');
  }

  private async explain(parsed: ParsedQuestion): Promise<string> {
    if (!parsed.pid) return 'Name the product id to explain, e.g. "Explain PRD-00042 week 2026-11-15".';
    const row = await explainRecord(this.ctx, {
      pid: parsed.pid,
      ...(parsed.week ? { week: parsed.week } : {}),
    });
    if (!row)
      return `I found no demand record of ${asData(parsed.pid)}${parsed.week ? ` in the week of ${parsed.week}` : ''} in your data.`;
    const step = (value: number | null) => (value === null ? 'empty' : fmtUnits(value));
    const revStep =
      row.revOverrideUnits !== null
        ? `Rev_Pln_Ovrd_Units is set, so Prelim = **${step(row.revOverrideUnits)}** units.`
        : `Prelim = round(${step(row.ensembleUnits)} × (1 + ${row.revOverridePercent ?? 0}%)) = **${step(row.prelimUnits)}** units.`;
    const sopStep =
      row.sopOverrideUnits !== null
        ? `SOP_Pln_Ovrd_Units is set, so Final = **${step(row.sopOverrideUnits)}** units.`
        : `Final = round(${step(row.prelimUnits)} × (1 + ${row.sopOverridePercent ?? 0}%)) = **${step(row.finalUnits)}** units.`;
    return [
      `**${asData(row.pid)}**, week of ${row.weekStart} (${asData(row.bu)} / ${asData(row.pf)}):`,
      '',
      `1. Baseline: the statistical forecast (Ensemble_Fcst_Units) is **${step(row.ensembleUnits)}** units.`,
      `2. ${revStep}`,
      `3. ${sopStep}`,
      `4. Money: Final cost = ${step(row.finalUnits)} × ${fmtMoney(row.unitCost)} = **${row.finalCost === null ? 'empty' : fmtMoney(row.finalCost)}**; Final revenue = ${step(row.finalUnits)} × ${fmtMoney(row.unitPrice)} = **${row.finalRevenue === null ? 'empty' : fmtMoney(row.finalRevenue)}**.`,
      `5. Published plan P1: ${step(row.p1Units)} units; actual bookings: ${step(row.actualUnits)} units.`,
      '',
      `Reason code: ${asData(row.reasonCode) || 'none'}; comment: ${row.comments ? `"${asData(row.comments)}"` : 'none'}; last changed by ${asData(row.lastUpdatedBy) || 'nobody'}.`,
      '',
      "Data used: this demand record and its product's unit cost and price (money is rounded to cents per record, so the dollar figures above are shown without cents).",
    ].join('\n');
  }

  private async accuracy(scope: Scope): Promise<string> {
    const result = await forecastAccuracy(this.ctx, scope);
    if (result.total.actualUnits === 0)
      return `There are no past weeks with actual bookings for ${describeScope(scope)} yet, so accuracy cannot be measured.`;
    const label = result.groupBy === 'bu' ? 'Business unit' : 'Family';
    const rows = result.groups.map((g) => [
      asData(g.group),
      fmtUnits(g.actualUnits),
      fmtPercent(g.forecastWape).replace('+', ''),
      fmtPercent(g.forecastBias),
      fmtPercent(g.planWape).replace('+', ''),
      fmtPercent(g.planBias),
    ]);
    const lines = [
      `**Forecast accuracy** for ${describeScope(scope)}, weeks ${result.weeks.from} to before ${result.weeks.to}: the statistical forecast's error (WAPE) is **${fmtPercent(result.total.forecastWape).replace('+', '')}** with a bias of **${fmtPercent(result.total.forecastBias)}**; the final plan's error is **${fmtPercent(result.total.planWape).replace('+', '')}**, bias **${fmtPercent(result.total.planBias)}**.`,
      '',
      table([label, 'Actual units', 'Forecast WAPE', 'Forecast bias', 'Plan WAPE', 'Plan bias'], rows),
      '',
      'WAPE = Σ|forecast − actual| / Σ actual; bias = Σ(forecast − actual) / Σ actual (positive = over-forecast).',
    ];
    if (result.backtest.length > 0) {
      lines.push(
        '',
        `Back-test of the latest forecast run (run ${Math.max(...result.backtest.map((b) => b.runId))}), mean per product:`,
        '',
        table(
          [label, 'Products', 'MAPE', 'Bias'],
          result.backtest.map((b) => [
            asData(b.group),
            fmtUnits(b.products),
            fmtPercent(b.mape).replace('+', ''),
            fmtPercent(b.bias),
          ]),
        ),
      );
    }
    lines.push(
      '',
      `Data used: past weeks' actual bookings against the statistical forecast and final plan each record holds${result.backtest.length ? ', and the back-test accuracy stored by the forecast run' : ' (no forecast run has stored a back-test yet)'}. The forecast's lag is not stored, so accuracy by lag is not available yet.`,
    );
    return lines.join('\n');
  }

  private async overrideFigures(scope: Scope, period: string | undefined) {
    return largestOverridesTool(this.ctx, { ...scope, ...(period ? { period } : {}), limit: 5 });
  }

  private overrideTable(top: Awaited<ReturnType<OfflineAnalyst['overrideFigures']>>['top']): string {
    return table(
      ['Product', 'Week', 'Forecast revenue', 'Final revenue', 'Impact', 'Reason'],
      top.map((o) => [
        asData(o.pid),
        o.weekStart,
        fmtMoney(o.baselineRevenue),
        fmtMoney(o.finalRevenue),
        fmtSigned(o.impact, fmtMoney),
        asData(o.reasonCode) || 'none',
      ]),
    );
  }

  private async overrides(scope: Scope, period: string | undefined): Promise<string> {
    const result = await this.overrideFigures(scope, period);
    if (result.count === 0)
      return `There are no overrides for ${describeScope(scope)} in ${periodText(result.period)}.`;
    return [
      `**${fmtUnits(result.count)} overridden records** for ${describeScope(scope)} in ${periodText(result.period)}: net impact **${fmtSigned(result.netImpact, fmtMoney)}** against the statistical forecast (${fmtUnits(result.positive)} up, ${fmtUnits(result.negative)} down). The largest:`,
      '',
      this.overrideTable(result.top),
      '',
      'Data used: records with any override set; impact = final plan revenue − statistical forecast × unit price (docs/metrics.md, Net Impact).',
    ].join('\n');
  }

  private async bestPractices(scope: Scope, period: string | undefined): Promise<string> {
    const result = await this.overrideFigures(scope, period);
    return [
      '**Override best practices**',
      '',
      '1. Override only with information the statistical forecast cannot see (a confirmed order, a promotion, a supply limit).',
      '2. Always give a **reason code** and a short comment, so reviewers can judge the override before the next publish.',
      '3. Prefer a percentage on aggregated planning and units for a known quantity; revisit overrides once actuals arrive.',
      '4. Watch the bias: overrides that are mostly upward usually inflate the plan.',
      '',
      `Your overrides now (${describeScope(scope)}, ${periodText(result.period)}): **${fmtUnits(result.count)}** records, **${fmtUnits(result.positive)}** up and **${fmtUnits(result.negative)}** down, net impact **${fmtSigned(result.netImpact, fmtMoney)}**.`,
      ...(result.top.length
        ? ['', 'Largest ones to review first:', '', this.overrideTable(result.top.slice(0, 3))]
        : []),
      '',
      'Data used: records with any override set and their revenue impact against the statistical forecast.',
    ].join('\n');
  }

  private async variance(scope: Scope, period: string | undefined): Promise<string> {
    const result = await planTotals(this.ctx, {
      ...scope,
      ...(period ? { period } : {}),
      groupBy: scope.bu || scope.pid ? 'pf' : 'bu',
    });
    const { total } = result;
    if (total.records === 0)
      return `I found no demand records for ${describeScope(scope)} in ${periodText(result.period)}.`;
    const groups = [...result.groups].sort(
      (a, b) => Math.abs(b.finalUnits - b.statUnits) - Math.abs(a.finalUnits - a.statUnits),
    );
    const rows = groups.map((g) => [
      asData(g.group ?? ''),
      fmtUnits(g.statUnits),
      fmtUnits(g.finalUnits),
      fmtPercent(changePercent(g.finalUnits, g.statUnits)),
    ]);
    return [
      `**Final plan vs statistical forecast** for ${describeScope(scope)} in ${periodText(result.period)}: ${fmtUnits(total.finalUnits)} units planned against ${fmtUnits(total.statUnits)} forecast, **${fmtSigned(total.finalUnits - total.statUnits, fmtUnits)} units (${fmtPercent(changePercent(total.finalUnits, total.statUnits))})**. Final plan revenue ${fmtMoney(total.finalRevenue)} against the published P1 plan's ${fmtMoney(total.p1Revenue)} (${fmtPercent(changePercent(total.finalRevenue, total.p1Revenue))}).`,
      ...(rows.length
        ? [
            '',
            table(
              [scope.bu || scope.pid ? 'Family' : 'Business unit', 'Forecast', 'Final plan', 'Variance'],
              rows,
            ),
          ]
        : []),
      '',
      `Data used: ${fmtUnits(total.records)} demand records (Ensemble_Fcst_Units, Final_Pln_Units, Final_Pln_Rev_Dlrs, P1_Pub_Pln_Rev_Dlrs).`,
    ].join('\n');
  }

  private async actuals(scope: Scope, period: string | undefined): Promise<string> {
    const result = await planTotals(this.ctx, { ...scope, ...(period ? { period } : {}) });
    const { total } = result;
    return [
      `**Actuals** for ${describeScope(scope)} in ${periodText(result.period)}: **${fmtUnits(total.actualUnits)} units** booked for **${fmtMoney(total.actualRevenue)}** (Act_Bkg_Units, Act_Rev_Dlrs).`,
      '',
      '- Actual bookings exist only for weeks that have passed; future weeks show the plan instead.',
      '- Compare them with the statistical forecast and the final plan of the same weeks: ask "How accurate is our forecast?" for the error and bias.',
      '- A week far from its forecast is worth a look before overriding the weeks ahead: a one-off order is not a trend.',
      '',
      `Data used: ${fmtUnits(total.records)} demand records.`,
    ].join('\n');
  }

  private async totals(scope: Scope, period: string | undefined): Promise<string> {
    const result = await planTotals(this.ctx, { ...scope, ...(period ? { period } : {}) });
    const { total } = result;
    if (total.records === 0)
      return `I found no demand records for ${describeScope(scope)} in ${periodText(result.period)}.`;
    return [
      `**Totals** for ${describeScope(scope)} in ${periodText(result.period)}:`,
      '',
      table(
        ['Measure', 'Units', 'Revenue'],
        [
          ['Actual bookings', fmtUnits(total.actualUnits), fmtMoney(total.actualRevenue)],
          ['Statistical forecast', fmtUnits(total.statUnits), 'units only'],
          ['Final plan', fmtUnits(total.finalUnits), fmtMoney(total.finalRevenue)],
          ['Published plan (P1)', fmtUnits(total.p1Units), fmtMoney(total.p1Revenue)],
        ],
      ),
      '',
      `Final plan cost ${fmtMoney(total.finalCost)}, margin **${fmtMoney(total.finalRevenue - total.finalCost)}**.`,
      '',
      `Data used: ${fmtUnits(total.records)} demand records (sums kept exact by the database's roll-up totals).`,
    ].join('\n');
  }
}
