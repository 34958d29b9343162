import {
  GREETING_SCENARIO,
  parseQuestion,
  type ChatContext,
  type ParsedQuestion,
  type ScenarioPreview,
} from '@ps/domain';
import { asData, changePercent, table, type Speaker } from './answer-locale';
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
 * figures they return, in the user's language and formats, saying which data it used. No model,
 * no network.
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

const names = (list: readonly string[]) => list.map(asData).join(', ');

/** "business unit X; family Y" in the user's language, or "all data you can see". */
function describeScope(s: Speaker, scope: Scope): string {
  const parts: string[] = [];
  if (scope.pid) parts.push(s.t('scope.product', { name: asData(scope.pid) }));
  if (scope.bu) parts.push(s.t('scope.bu', { names: names(scope.bu) }));
  if (scope.pf) parts.push(s.t('scope.pf', { names: names(scope.pf) }));
  if (scope.region) parts.push(s.t('scope.region', { names: names(scope.region) }));
  return parts.length ? parts.join('; ') : s.t('scope.all');
}

/** The data note every answer ends with (and the currency note when no rate applies). */
const dataUsed = (s: Speaker, what: string) =>
  [s.t('dataUsed', { what }), s.missingRate].filter(Boolean).join(' ');

const CAPABILITIES = [
  'totals',
  'variance',
  'overrides',
  'accuracy',
  'actuals',
  'record',
  'versions',
  'whatIf',
] as const;

export class OfflineAnalyst {
  constructor(
    private readonly ctx: ToolContext,
    private readonly s: Speaker,
  ) {}

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
        return none(await this.accuracy(scope, parsed.lag));
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
        return none(this.unknown());
    }
  }

  private unknown(): string {
    const { t } = this.s;
    return [
      t('unknown.intro'),
      '',
      ...CAPABILITIES.map(
        (key) => `- **${t(`capabilities.${key}.label`)}**: ${t(`capabilities.${key}.example`)}`,
      ),
      '',
      t('unknown.narrow'),
    ].join('\n');
  }

  private async scenario(parsed: ParsedQuestion, scope: Scope): Promise<AnalystAnswer> {
    const { t, units, money, signedPercent } = this.s;
    const percent = parsed.percent!;
    const name =
      parsed.scenarioName ??
      t(percent >= 0 ? 'scenario.nameUp' : 'scenario.nameDown', { percent: Math.abs(percent) });
    const quarter = parsed.quarter
      ? parsed.quarter.year
        ? `${parsed.quarter.year}-Q${parsed.quarter.q}`
        : `Q${parsed.quarter.q}`
      : `Q${GREETING_SCENARIO.quarter}`;
    const preview = await whatIfScenario(this.ctx, {
      name,
      percent,
      period: quarter,
      ...(scope.bu?.[0] ? { bu: scope.bu[0] } : {}),
      ...(scope.pf?.[0] ? { pf: scope.pf[0] } : {}),
    });
    const { before, after } = preview;
    const row = (key: string, b: number, a: number, f: (v: number) => string) => [
      t(`measure.${key}`),
      f(b),
      f(a),
      signedPercent(changePercent(a, b)),
    ];
    const where = preview.bu
      ? t('scope.bu', { names: asData(preview.bu) })
      : preview.pf
        ? t('scope.pf', { names: asData(preview.pf) })
        : t('scenario.everyUnit');
    const lines = [
      t('scenario.head', {
        name: asData(preview.name),
        percent: signedPercent(preview.percent),
        quarter: preview.quarter,
        where,
      }),
      '',
      table(
        [t('column.measure'), t('column.before'), t('column.after'), t('column.change')],
        [
          row('units', before.units, after.units, units),
          row('revenue', before.revenue, after.revenue, money),
          row('cost', before.cost, after.cost, money),
          row('margin', before.margin, after.margin, money),
        ],
      ),
      '',
      dataUsed(
        this.s,
        t('scenario.data', {
          count: preview.records,
          records: units(preview.records),
          quarter: preview.quarter,
        }),
      ),
    ];
    if (preview.records === 0) lines.push('', t('scenario.nothing'));
    if (/end user/i.test(preview.name) && !preview.bu && !preview.pf) lines.push('', t('scenario.endUser'));
    return { text: lines.join('\n'), scenario: preview.records > 0 ? preview : null };
  }

  private async compare(): Promise<string> {
    const { t, money, signedMoney, signedPercent } = this.s;
    const result = await comparePlanVersions(this.ctx);
    if (result.latest.length === 0) return t('compare.none');
    const rows = result.quarters.map((q) => [
      q.quarter,
      money(q.previous),
      money(q.latest),
      signedMoney(q.latest - q.previous),
      signedPercent(changePercent(q.latest, q.previous)),
    ]);
    const versions = (list: typeof result.latest) =>
      list.map((v) => `${asData(v.label)} (${v.clientId})`).join(', ');
    return [
      t('compare.head', {
        latest: versions(result.latest),
        previous: versions(result.previous) || t('compare.noPrevious'),
      }),
      '',
      table(
        [
          t('column.quarter'),
          t('column.previous'),
          t('column.latest'),
          t('column.change'),
          t('column.changePercent'),
        ],
        rows,
      ),
      '',
      dataUsed(this.s, t('compare.data')),
    ].join('\n');
  }

  private async explain(parsed: ParsedQuestion): Promise<string> {
    const { t, units, money, date } = this.s;
    if (!parsed.pid) return t('explain.needPid');
    const row = await explainRecord(this.ctx, {
      pid: parsed.pid,
      ...(parsed.week ? { week: parsed.week } : {}),
    });
    if (!row)
      return parsed.week
        ? t('explain.notFoundWeek', { pid: asData(parsed.pid), week: date(parsed.week) })
        : t('explain.notFound', { pid: asData(parsed.pid) });
    const step = (value: number | null) => (value === null ? t('explain.empty') : units(value));
    const cash = (value: number | null) => (value === null ? t('explain.empty') : money(value, 2));
    const revStep =
      row.revOverrideUnits !== null
        ? t('explain.revUnits', { units: step(row.revOverrideUnits) })
        : t('explain.revPercent', {
            base: step(row.ensembleUnits),
            percent: row.revOverridePercent ?? 0,
            units: step(row.prelimUnits),
          });
    const sopStep =
      row.sopOverrideUnits !== null
        ? t('explain.sopUnits', { units: step(row.sopOverrideUnits) })
        : t('explain.sopPercent', {
            base: step(row.prelimUnits),
            percent: row.sopOverridePercent ?? 0,
            units: step(row.finalUnits),
          });
    return [
      t('explain.head', {
        pid: asData(row.pid),
        week: date(row.weekStart),
        bu: asData(row.bu),
        pf: asData(row.pf),
      }),
      '',
      `1. ${t('explain.baseline', { units: step(row.ensembleUnits) })}`,
      `2. ${revStep}`,
      `3. ${sopStep}`,
      `4. ${t('explain.money', {
        units: step(row.finalUnits),
        unitCost: money(row.unitCost, 2),
        cost: cash(row.finalCost),
        unitPrice: money(row.unitPrice, 2),
        revenue: cash(row.finalRevenue),
      })}`,
      `5. ${t('explain.published', { p1: step(row.p1Units), actual: step(row.actualUnits) })}`,
      '',
      t('explain.notes', {
        reason: asData(row.reasonCode) || t('explain.noneValue'),
        comment: row.comments ? `"${asData(row.comments)}"` : t('explain.noneValue'),
        user: asData(row.lastUpdatedBy) || t('explain.nobody'),
      }),
      '',
      dataUsed(this.s, t('explain.data')),
    ].join('\n');
  }

  private async accuracy(scope: Scope, lag: number | undefined): Promise<string> {
    const { t, units, money, percent, date } = this.s;
    const result = await forecastAccuracy(this.ctx, { ...scope, ...(lag ? { lag } : {}) });
    const { region: _region, ...split } = scope;
    const pct = (value: number | null) => percent(value, 2);
    const notes = result.regionNotSplit ? ['', t('accuracy.noRegion')] : [];
    if (!result.productListed)
      return [t('accuracy.productNotListed', { pid: asData(scope.pid), lag: result.lag }), ...notes].join(
        '\n',
      );
    if (!result.fromWeek || !result.toWeek || (!result.total && result.rows.length === 0))
      return [t('accuracy.none', { lag: result.lag }), ...notes].join('\n');
    const head = {
      lag: result.lag,
      from: date(result.fromWeek),
      to: date(result.toWeek),
      where: describeScope(this.s, split),
    };
    const lines: string[] = [];
    if (result.total) {
      const { metrics: m, fva } = result.total;
      lines.push(
        t('accuracy.head', {
          ...head,
          accuracy: pct(m.accuracy),
          wape: pct(m.wape),
          mape: pct(m.mape),
          bias: pct(m.bias),
          mase: m.mase === null ? t('na') : this.s.number(m.mase, 3),
          count: m.pairs,
          pairs: units(m.pairs),
        }),
        '',
        t('accuracy.fva', {
          naive: pct(fva.naive),
          statistical: pct(fva.statistical),
          prelim: pct(fva.prelim),
          final: pct(fva.final),
        }),
      );
    } else {
      lines.push(t('accuracy.headGroups', head));
    }
    const first = result.rows[0];
    if (first) {
      // Rows are business units, families or products: the table names what they are.
      const kind = first.pid ? 'product' : first.pf ? 'family' : 'businessUnit';
      lines.push(
        '',
        table(
          [
            t(`column.${kind}`),
            t('column.accuracy'),
            t('column.wape'),
            t('column.bias'),
            t('column.errorValue'),
          ],
          result.rows.map((r) => [
            asData(r.pid ?? r.pf ?? r.bu),
            pct(r.metrics.accuracy),
            pct(r.metrics.wape),
            pct(r.metrics.bias),
            money(r.errorValue),
          ]),
        ),
      );
    }
    if (result.level === 'all')
      lines.push(
        '',
        t('accuracy.alerts', { count: result.alerts, alerts: units(result.alerts), lag: result.lag }),
      );
    lines.push(
      '',
      t('accuracy.formulas'),
      ...notes,
      '',
      dataUsed(
        this.s,
        t('accuracy.data', { count: result.snapshots, snapshots: units(result.snapshots), lag: result.lag }),
      ),
    );
    return lines.join('\n');
  }

  private async overrideFigures(scope: Scope, period: string | undefined) {
    return largestOverridesTool(this.ctx, { ...scope, ...(period ? { period } : {}), limit: 5 });
  }

  private overrideTable(top: Awaited<ReturnType<OfflineAnalyst['overrideFigures']>>['top']): string {
    const { t, money, signedMoney, date } = this.s;
    return table(
      [
        t('column.product'),
        t('column.week'),
        t('column.forecastRevenue'),
        t('column.finalRevenue'),
        t('column.impact'),
        t('column.reason'),
      ],
      top.map((o) => [
        asData(o.pid),
        date(o.weekStart),
        money(o.baselineRevenue),
        money(o.finalRevenue),
        signedMoney(o.impact),
        asData(o.reasonCode) || t('explain.noneValue'),
      ]),
    );
  }

  private async overrides(scope: Scope, period: string | undefined): Promise<string> {
    const { t, units, signedMoney } = this.s;
    const result = await this.overrideFigures(scope, period);
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (result.count === 0) return t('overrides.none', where);
    return [
      t('overrides.head', {
        ...where,
        count: result.count,
        records: units(result.count),
        impact: signedMoney(result.netImpact),
        up: units(result.positive),
        down: units(result.negative),
      }),
      '',
      this.overrideTable(result.top),
      '',
      dataUsed(this.s, t('overrides.data')),
    ].join('\n');
  }

  private async bestPractices(scope: Scope, period: string | undefined): Promise<string> {
    const { t, units, signedMoney } = this.s;
    const result = await this.overrideFigures(scope, period);
    return [
      `**${t('practices.title')}**`,
      '',
      ...[1, 2, 3, 4].map((n) => `${n}. ${t(`practices.rule${n}`)}`),
      '',
      t('practices.now', {
        where: describeScope(this.s, scope),
        period: this.s.period(result.period),
        count: result.count,
        records: units(result.count),
        up: units(result.positive),
        down: units(result.negative),
        impact: signedMoney(result.netImpact),
      }),
      ...(result.top.length
        ? ['', t('practices.reviewFirst'), '', this.overrideTable(result.top.slice(0, 3))]
        : []),
      '',
      dataUsed(this.s, t('practices.data')),
    ].join('\n');
  }

  private async variance(scope: Scope, period: string | undefined): Promise<string> {
    const { t, units, money, signedUnits, signedPercent } = this.s;
    const byFamily = Boolean(scope.bu || scope.pid);
    const result = await planTotals(this.ctx, {
      ...scope,
      ...(period ? { period } : {}),
      groupBy: byFamily ? 'pf' : 'bu',
    });
    const { total } = result;
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (total.records === 0) return t('noRecords', where);
    const groups = [...result.groups].sort(
      (a, b) => Math.abs(b.finalUnits - b.statUnits) - Math.abs(a.finalUnits - a.statUnits),
    );
    const rows = groups.map((g) => [
      asData(g.group ?? ''),
      units(g.statUnits),
      units(g.finalUnits),
      signedPercent(changePercent(g.finalUnits, g.statUnits)),
    ]);
    return [
      t('variance.head', {
        ...where,
        final: units(total.finalUnits),
        stat: units(total.statUnits),
        gap: signedUnits(total.finalUnits - total.statUnits),
        gapPercent: signedPercent(changePercent(total.finalUnits, total.statUnits)),
        revenue: money(total.finalRevenue),
        p1: money(total.p1Revenue),
        p1Percent: signedPercent(changePercent(total.finalRevenue, total.p1Revenue)),
      }),
      ...(rows.length
        ? [
            '',
            table(
              [
                byFamily ? t('column.family') : t('column.businessUnit'),
                t('column.forecast'),
                t('column.finalPlan'),
                t('column.variance'),
              ],
              rows,
            ),
          ]
        : []),
      '',
      dataUsed(this.s, t('variance.data', { count: total.records, records: units(total.records) })),
    ].join('\n');
  }

  private async actuals(scope: Scope, period: string | undefined): Promise<string> {
    const { t, units, money } = this.s;
    const result = await planTotals(this.ctx, { ...scope, ...(period ? { period } : {}) });
    const { total } = result;
    return [
      t('actuals.head', {
        where: describeScope(this.s, scope),
        period: this.s.period(result.period),
        units: units(total.actualUnits),
        revenue: money(total.actualRevenue),
      }),
      '',
      ...[1, 2, 3].map((n) => `- ${t(`actuals.tip${n}`)}`),
      '',
      dataUsed(this.s, t('records', { count: total.records, records: units(total.records) })),
    ].join('\n');
  }

  private async totals(scope: Scope, period: string | undefined): Promise<string> {
    const { t, units, money } = this.s;
    const result = await planTotals(this.ctx, { ...scope, ...(period ? { period } : {}) });
    const { total } = result;
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (total.records === 0) return t('noRecords', where);
    return [
      t('totals.head', where),
      '',
      table(
        [t('column.measure'), t('column.units'), t('column.revenue')],
        [
          [t('totals.actual'), units(total.actualUnits), money(total.actualRevenue)],
          [t('totals.forecast'), units(total.statUnits), t('totals.unitsOnly')],
          [t('totals.final'), units(total.finalUnits), money(total.finalRevenue)],
          [t('totals.p1'), units(total.p1Units), money(total.p1Revenue)],
        ],
      ),
      '',
      t('totals.margin', {
        cost: money(total.finalCost),
        margin: money(total.finalRevenue - total.finalCost),
      }),
      '',
      dataUsed(this.s, t('totals.data', { count: total.records, records: units(total.records) })),
    ].join('\n');
  }
}
