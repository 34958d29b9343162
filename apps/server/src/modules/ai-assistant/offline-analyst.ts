import {
  comparedMeasures,
  parseQuestion,
  sundayOf,
  type Catalogue,
  type ChatContext,
  type PlanMeasure,
  type ParsedQuestion,
  type PeriodAsk,
  type ResolvedPeriod,
  type ScenarioPreview,
} from '@ps/domain';
import { asData, changePercent, table, type Speaker } from './answer-locale';
import {
  compareMeasures,
  comparePlanVersions,
  explainChange,
  explainRecord,
  forecastAccuracy,
  largestOverridesTool,
  measureOf,
  planTotals,
  resolvePeriod,
  reviewQueue,
  whatIfScenario,
  type ToolContext,
} from './ai-assistant.tools';

/**
 * The offline analyst: reads a question with the question reader (packages/domain/src/ai/
 * question.ts, docs/ai-assistant.md), calls the grounded tools and writes the answer with the
 * figures they return, in the user's language and formats. Every answer says what it understood
 * (measures, scope, period, names read from misspellings), names the words it could not place,
 * and ends with the data it used. No model, no network.
 */
export type AnalystAnswer = { text: string; scenario: ScenarioPreview | null };

type Scope = {
  client?: string[];
  bu?: string[];
  pf?: string[];
  region?: string[];
  site?: string[];
  planner?: string[];
  pid?: string;
};

/** The question's own names win over the page's filters; the page's filters narrow the rest. */
function scopeOf(parsed: ParsedQuestion, context: ChatContext): Scope {
  const page = context.filters ?? {};
  const q = parsed.scope;
  const scope: Scope = {};
  const bu = q.bu ?? page.bu;
  const pf = q.pf ?? page.pf;
  const region = q.region ?? page.region;
  if (q.client?.length) scope.client = q.client;
  if (bu?.length) scope.bu = bu;
  if (pf?.length) scope.pf = pf;
  if (region?.length) scope.region = region;
  if (q.site?.length) scope.site = q.site;
  if (q.planner?.length) scope.planner = q.planner;
  if (q.pid) scope.pid = q.pid;
  return scope;
}

/** A period as asked, as the tools' period key. */
function periodKey(period: PeriodAsk | undefined): string | undefined {
  if (!period) return undefined;
  switch (period.kind) {
    case 'week':
      return period.week;
    case 'quarter':
      return period.year ? `${period.year}-Q${period.q}` : `Q${period.q}`;
    case 'month':
      return period.year ? `${period.year}-${String(period.m).padStart(2, '0')}` : `month-${period.m}`;
    case 'year':
      return String(period.year);
    case 'relative':
      return `${period.offset === 0 ? 'this' : period.offset > 0 ? 'next' : 'last'}-${period.unit}`;
    case 'lastWeeks':
      return `last-${period.weeks}-weeks`;
    case 'lately':
    case 'ytd':
      return period.kind;
  }
}

const names = (list: readonly string[]) => list.map(asData).join(', ');

/** "business unit X; family Y" in the user's language, or "all data you can see". */
function describeScope(s: Speaker, scope: Scope): string {
  const parts: string[] = [];
  if (scope.pid) parts.push(s.t('scope.product', { name: asData(scope.pid) }));
  for (const key of ['client', 'bu', 'pf', 'region', 'site', 'planner'] as const) {
    const list = scope[key];
    if (list?.length) parts.push(s.t(`scope.${key}`, { names: names(list) }));
  }
  return parts.length ? parts.join('; ') : s.t('scope.all');
}

/** The data note every answer ends with (and the currency note when no rate applies). */
const dataUsed = (s: Speaker, what: string) =>
  [s.t('dataUsed', { what }), s.missingRate].filter(Boolean).join(' ');

const quote = (word: string) => `“${asData(word)}”`;
const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

const CAPABILITIES = [
  'totals',
  'variance',
  'why',
  'advice',
  'overrides',
  'accuracy',
  'actuals',
  'record',
  'versions',
  'whatIf',
] as const;

/** What an answer is about, for the line that says what was understood. */
type Topic = {
  measures?: readonly (PlanMeasure | 'lastYearActual')[];
  period?: ResolvedPeriod | null;
  /** The period the first is compared with, when two were named. */
  against?: ResolvedPeriod | null;
  scope: Scope;
};

export class OfflineAnalyst {
  constructor(
    private readonly ctx: ToolContext,
    private readonly s: Speaker,
  ) {}

  async answer(question: string, context: ChatContext, catalogue: Catalogue): Promise<AnalystAnswer> {
    const parsed = parseQuestion(question, catalogue);
    const scope = scopeOf(parsed, context);
    const key = periodKey(parsed.period);
    const period = (await resolvePeriod(this.ctx, key)) ?? null;
    const topic: Topic = { scope, period };
    if (parsed.suggestions.length) return { text: this.didYouMean(parsed, topic), scenario: null };
    const none = (text: string): AnalystAnswer => ({ text, scenario: null });
    const body = await (async (): Promise<AnalystAnswer> => {
      switch (parsed.intent) {
        case 'scenario':
          return this.scenario(parsed, scope, period);
        case 'versions':
          return none(await this.versions());
        case 'why':
          return none(await this.why(parsed, scope, key, topic));
        case 'advice':
          return none(await this.advice(scope));
        case 'explain':
          return none(await this.explain(parsed));
        case 'accuracy':
          return none(await this.accuracy(scope, parsed));
        case 'practices':
          return none(await this.bestPractices(scope, key));
        case 'overrides':
          return none(await this.overrides(scope, key, parsed, question));
        case 'compare':
          return none(
            parsed.periods.length >= 2
              ? await this.comparePeriods(parsed, scope, topic)
              : await this.compare(parsed, scope, key, topic),
          );
        case 'actuals':
          topic.measures = ['actual'];
          return none(await this.actuals(scope, key));
        case 'totals':
          topic.measures = parsed.measures.length ? parsed.measures : undefined;
          return none(await this.totals(scope, key, parsed.measures));
        case 'unknown':
          return none(this.unknown());
      }
    })();
    return { ...body, text: this.withUnderstanding(body.text, parsed, topic) };
  }

  /**
   * The words not placed go first (so no figure reads as an answer about them), then the answer,
   * then what was understood, before the data note.
   */
  private withUnderstanding(text: string, parsed: ParsedQuestion, topic: Topic): string {
    const { t } = this.s;
    const lines = text.split('\n');
    const dataAt = lines.findIndex((line) => line.startsWith(t('dataUsed', { what: '' }).trim()));
    const unknown = parsed.unknown.length
      ? [t('understood.unknown', { words: parsed.unknown.map(quote).join(', ') }), '']
      : [];
    if (parsed.intent === 'unknown') return [...unknown, ...lines].join('\n');
    const understood = this.understood(parsed, topic);
    // A yes or no stays the first word of the answer; the words not placed follow it.
    const verdict = [`**${t('yes')}.**`, `**${t('no')}.**`].some((v) => lines[0]?.startsWith(v))
      ? lines.splice(0, 1)
      : [];
    const at = dataAt < 0 ? -1 : dataAt - verdict.length;
    if (at < 0) return [...verdict, ...unknown, ...lines, '', understood].join('\n');
    return [...verdict, ...unknown, ...lines.slice(0, at), understood, '', ...lines.slice(at)].join('\n');
  }

  private understood(parsed: ParsedQuestion, topic: Topic): string {
    const { t } = this.s;
    const parts = [t(`intent.${parsed.intent}`)];
    if (topic.measures?.length)
      parts.push(topic.measures.map((m) => t(`measureName.${m}`)).join(t('understood.versus')));
    parts.push(describeScope(this.s, topic.scope));
    parts.push(
      topic.against
        ? `${this.s.period(topic.period ?? null)}${t('understood.versus')}${this.s.period(topic.against)}`
        : this.s.period(topic.period ?? null),
    );
    for (const c of parsed.corrected)
      if (c.typed !== c.read.toLowerCase())
        parts.push(t('understood.corrected', { typed: quote(c.typed), read: asData(c.read) }));
    return `_${t('understood.line', { parts: parts.join(' · ') })}_`;
  }

  private didYouMean(parsed: ParsedQuestion, topic: Topic): string {
    const { t } = this.s;
    return [
      ...parsed.suggestions.map(({ typed, candidates }) =>
        t('understood.didYouMean', {
          typed: quote(typed),
          candidates: candidates.map(asData).join(', '),
        }),
      ),
      '',
      this.understood({ ...parsed, intent: parsed.intent }, topic),
      ...(parsed.unknown.length
        ? [t('understood.unknown', { words: parsed.unknown.map(quote).join(', ') })]
        : []),
    ].join('\n');
  }

  private yesNo(yes: boolean): string {
    return `**${this.s.t(yes ? 'yes' : 'no')}.**`;
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

  private async scenario(
    parsed: ParsedQuestion,
    scope: Scope,
    asked: ResolvedPeriod | null,
  ): Promise<AnalystAnswer> {
    const { t, units, money, signedPercent } = this.s;
    const percent = parsed.percent!;
    const name =
      parsed.scenarioName ??
      t(percent >= 0 ? 'scenario.nameUp' : 'scenario.nameDown', { percent: Math.abs(percent) });
    // A what-if covers a quarter: the one asked, else the next one (never a quarter already past).
    const quarter =
      asked && /^\d{4}-Q[1-4]$/.test(asked.label)
        ? asked.label
        : (await resolvePeriod(this.ctx, 'next-quarter'))!.label;
    const preview = await whatIfScenario(this.ctx, {
      name: name.slice(0, 80),
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

  private async versions(): Promise<string> {
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
    const pid = parsed.scope.pid;
    if (!pid) return t('explain.needPid');
    const week = parsed.period?.kind === 'week' ? parsed.period.week : undefined;
    const row = await explainRecord(this.ctx, { pid, ...(week ? { week } : {}) });
    if (!row)
      return week
        ? t('explain.notFoundWeek', { pid: asData(pid), week: date(week) })
        : t('explain.notFound', { pid: asData(pid) });
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

  private async accuracy(scope: Scope, parsed: ParsedQuestion): Promise<string> {
    const { t, units, money, percent, date } = this.s;
    const lag = parsed.lag;
    const result = await forecastAccuracy(this.ctx, {
      ...(scope.bu ? { bu: scope.bu } : {}),
      ...(scope.pf ? { pf: scope.pf } : {}),
      ...(scope.region ? { region: scope.region } : {}),
      ...(scope.pid ? { pid: scope.pid } : {}),
      ...(lag ? { lag } : {}),
    });
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
    if (parsed.yesNo && result.total) {
      const { metrics: m, fva } = result.total;
      if (parsed.side && m.bias !== null) {
        const yes = parsed.side === 'above' ? m.bias > 0 : m.bias < 0;
        lines.push(
          `${this.yesNo(yes)} ${t('accuracy.biasAnswer', { where: head.where, lag: result.lag, bias: pct(m.bias) })}`,
          '',
        );
      } else if (!parsed.side && fva.final !== null && fva.statistical !== null) {
        lines.push(
          `${this.yesNo(fva.final <= fva.statistical)} ${t('accuracy.fvaAnswer', { final: pct(fva.final), statistical: pct(fva.statistical) })}`,
          '',
        );
      }
    }
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

  private async overrides(
    scope: Scope,
    period: string | undefined,
    parsed: ParsedQuestion,
    question: string,
  ): Promise<string> {
    const { t, units, signedMoney, money } = this.s;
    const verdict = (yes: boolean) => (parsed.yesNo ? [this.yesNo(yes)] : []);
    // A capitalised name the catalogue does not hold, asked about overrides ("Has Riley Okafor
    // overridden anything?"): a person who changed no record the user can see, not everyone's overrides.
    const person = scope.planner?.length
      ? []
      : parsed.unknown.filter((w) => /^\p{Lu}\p{Ll}+$/u.test(w) && !question.trimStart().startsWith(w));
    if (person.length)
      return [...verdict(false), t('overrides.nobodyNamed', { name: quote(person.join(' ')) })].join('\n');
    const result = await this.overrideFigures(scope, period);
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (result.count === 0) return [...verdict(false), t('overrides.none', where)].join('\n');
    const planners = result.byPlanner.length > 1 && !scope.planner?.length;
    return [
      ...verdict(true),
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
      ...(planners
        ? [
            '',
            t('overrides.byPlanner'),
            '',
            table(
              [t('column.planner'), t('column.records'), t('column.impact')],
              result.byPlanner.map((p) => [
                asData(p.planner) || t('explain.nobody'),
                units(p.count),
                p.impact < 0 ? `−${money(-p.impact)}` : signedMoney(p.impact),
              ]),
            ),
          ]
        : []),
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

  private async totals(
    scope: Scope,
    period: string | undefined,
    asked: readonly PlanMeasure[],
  ): Promise<string> {
    const { t, units, money } = this.s;
    const result = await planTotals(this.ctx, { ...scope, ...(period ? { period } : {}) });
    const { total } = result;
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (total.records === 0) return t('noRecords', where);
    const lead = asked.length === 1 ? asked[0]! : null;
    const rows = (['actual', 'stat', 'prelim', 'final', 'p1', 'p2'] as const).map((m) => {
      const figure = measureOf(total, m);
      return [t(`totals.${m}`), units(figure.units), money(figure.revenue)];
    });
    return [
      lead
        ? t('totals.headOne', {
            ...where,
            measure: capitalised(t(`measureName.${lead}`)),
            units: units(measureOf(total, lead).units),
            revenue: money(measureOf(total, lead).revenue),
          })
        : t('totals.head', where),
      '',
      table([t('column.measure'), t('column.units'), t('column.revenue')], rows),
      '',
      t('totals.margin', {
        cost: money(total.finalCost),
        margin: money(total.finalRevenue - total.finalCost),
      }),
      '',
      dataUsed(this.s, t('totals.data', { count: total.records, records: units(total.records) })),
    ].join('\n');
  }

  /**
   * One measure over two periods ("Q1 vs Q4", "this quarter vs last quarter"), the first named
   * first; the same period a year apart is a year-over-year comparison. Yes or no first when asked.
   */
  private async comparePeriods(parsed: ParsedQuestion, scope: Scope, topic: Topic): Promise<string> {
    const { t, units, money, signedUnits, signedMoney, signedPercent } = this.s;
    const [keyA, keyB] = [periodKey(parsed.periods[0]), periodKey(parsed.periods[1])];
    const [first, second] = [await resolvePeriod(this.ctx, keyA), await resolvePeriod(this.ctx, keyB)];
    if (!first || !second || !keyA || !keyB) return this.compare(parsed, scope, keyA, topic);
    const yearApart = (x: ResolvedPeriod, y: ResolvedPeriod) =>
      shiftYear(x.from, -1) === y.from && shiftYear(x.to, -1) === y.to;
    if (yearApart(first, second) || yearApart(second, first)) {
      const later = first.from > second.from ? keyA : keyB;
      topic.period = await resolvePeriod(this.ctx, later);
      return this.compare({ ...parsed, yoy: true }, scope, later, topic);
    }
    // Two measures and two periods ("final vs P1 this quarter vs last quarter"): the two measures
    // side by side in each period, the data notes of both at the end.
    if (parsed.measures.length >= 2) {
      const single = { ...parsed, periods: [] };
      const note = this.s.t('dataUsed', { what: '' }).trim();
      const parts = [
        (await this.compare(single, scope, keyA, topic)).split('\n'),
        (await this.compare(single, scope, keyB, topic)).split('\n'),
      ];
      topic.period = first;
      topic.against = second;
      const body = parts.map((lines) =>
        lines
          .filter((line) => !line.startsWith(note))
          .join('\n')
          .trim(),
      );
      const notes = parts.flatMap((lines) => lines.filter((line) => line.startsWith(note)));
      return [body.join('\n\n'), '', ...notes].join('\n');
    }
    const ended = first.to <= this.ctx.today && second.to <= this.ctx.today;
    const measure = parsed.measures[0] ?? (ended ? 'actual' : 'final');
    const groupBy = scope.pid || scope.site || scope.planner ? undefined : scope.bu || scope.pf ? 'pf' : 'bu';
    const result = await compareMeasures(this.ctx, {
      ...scope,
      period: keyA,
      against: keyB,
      a: measure,
      ...(groupBy ? { groupBy } : {}),
    });
    topic.measures = [measure];
    topic.period = first;
    topic.against = second;
    const periods = { periodA: this.s.period(first), periodB: this.s.period(second) };
    const where = {
      where: describeScope(this.s, scope),
      period: `${periods.periodA}${t('understood.versus')}${periods.periodB}`,
    };
    if (result.records === 0) return t('noRecords', where);
    const gap = result.a.units - result.b.units;
    const revenueB = result.b.revenue ?? 0;
    const lines: string[] = [];
    if (parsed.yesNo) lines.push(this.yesNo(parsed.side === 'below' ? gap < 0 : gap > 0));
    lines.push(
      t('gap.headPeriods', {
        ...where,
        ...periods,
        measure: capitalised(t(`measureName.${measure}`)),
        aUnits: units(result.a.units),
        bUnits: units(result.b.units),
        gap: signedUnits(gap),
        gapPercent: signedPercent(changePercent(result.a.units, result.b.units)),
        aRevenue: money(result.a.revenue),
        bRevenue: money(revenueB),
        revenueGap: signedMoney(result.a.revenue - revenueB),
        revenuePercent: signedPercent(changePercent(result.a.revenue, revenueB)),
      }),
    );
    // Actuals stop at this week: a period still running is compared on its weeks so far.
    const running = [first, second].filter((p) => p.to > this.ctx.today && p.from <= this.ctx.today);
    if (measure === 'actual' && running.length)
      lines.push(
        '',
        t('gap.actualsSoFar', {
          periods: running.map((p) => this.s.period(p)).join(', '),
          to: this.s.date(dayBefore(sundayOf(this.ctx.today))),
        }),
      );
    if (result.groups.length > 1)
      lines.push('', this.groupGapTable(groupBy, [periods.periodA, periods.periodB], result.groups));
    lines.push(
      '',
      dataUsed(this.s, t('gap.data', { count: result.records, records: units(result.records) })),
    );
    return lines.join('\n');
  }

  /** Two measures side by side, or a measure against the same weeks a year earlier; yes or no first when asked. */
  /** One row per family or business unit: both figures, the gap and the gap in percent. */
  private groupGapTable(
    groupBy: 'pf' | 'bu' | undefined,
    headers: [string, string],
    groups: ReadonlyArray<{ group: string | null; a: number; b: number }>,
  ): string {
    const { t, units, signedUnits, signedPercent } = this.s;
    return table(
      [
        t(groupBy === 'pf' ? 'column.family' : 'column.businessUnit'),
        ...headers,
        t('column.gap'),
        t('column.changePercent'),
      ],
      groups.map((g) => [
        asData(g.group ?? ''),
        units(g.a),
        units(g.b),
        signedUnits(g.a - g.b),
        signedPercent(changePercent(g.a, g.b)),
      ]),
    );
  }

  private async compare(
    parsed: ParsedQuestion,
    scope: Scope,
    period: string | undefined,
    topic: Topic,
  ): Promise<string> {
    const { t, units, money, signedUnits, signedMoney, signedPercent, date } = this.s;
    const [a, b] = comparedMeasures(parsed);
    const measure = parsed.yoy
      ? (parsed.measures[0] ?? (topic.period && topic.period.to <= this.ctx.today ? 'actual' : 'final'))
      : a;
    const groupBy = scope.pid || scope.site || scope.planner ? undefined : scope.bu || scope.pf ? 'pf' : 'bu';
    const result = await compareMeasures(this.ctx, {
      ...scope,
      ...(period ? { period } : {}),
      a: measure,
      ...(parsed.yoy ? { lastYear: true } : { b }),
      ...(groupBy ? { groupBy } : {}),
    });
    topic.measures = [measure, parsed.yoy ? 'lastYearActual' : b];
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (result.records === 0) return t('noRecords', where);
    const gap = result.a.units - result.b.units;
    const lines: string[] = [];
    if (parsed.yesNo) {
      // "Is A above B?": A is the measure named first, whatever order the gap is shown in.
      const [first, second] =
        parsed.measures[0] === result.b.measure
          ? [result.b.units, result.a.units]
          : [result.a.units, result.b.units];
      const yes = parsed.side === 'below' ? first < second : first > second;
      lines.push(this.yesNo(yes));
    }
    const names = {
      a: capitalised(t(`measureName.${result.a.measure}`)),
      b: t(`measureName.${result.b.measure}`),
    };
    const unitsGap = {
      aUnits: units(result.a.units),
      bUnits: units(result.b.units),
      gap: signedUnits(gap),
      gapPercent: signedPercent(changePercent(result.a.units, result.b.units)),
    };
    if (result.lastYearWeeks) {
      lines.push(
        t('gap.headYoy', {
          ...where,
          ...names,
          ...unitsGap,
          from: date(result.lastYearWeeks.from),
          to: date(dayBefore(result.lastYearWeeks.to)),
        }),
      );
    } else {
      const revenueB = result.b.revenue ?? 0;
      lines.push(
        t('gap.head', {
          ...where,
          ...names,
          ...unitsGap,
          aRevenue: money(result.a.revenue),
          bRevenue: money(revenueB),
          revenueGap: signedMoney(result.a.revenue - revenueB),
          revenuePercent: signedPercent(changePercent(result.a.revenue, revenueB)),
        }),
      );
    }
    if (result.groups.length > 1)
      lines.push('', this.groupGapTable(groupBy, [names.a, capitalised(names.b)], result.groups));
    lines.push(
      '',
      dataUsed(
        this.s,
        t(result.lastYearWeeks ? 'gap.dataYoy' : 'gap.data', {
          count: result.records,
          records: units(result.records),
        }),
      ),
    );
    return lines.join('\n');
  }

  /** The largest moves across weeks (one product) or the products behind a gap, with what caused them. */
  private async why(
    parsed: ParsedQuestion,
    scope: Scope,
    period: string | undefined,
    topic: Topic,
  ): Promise<string> {
    const { t, units, signedUnits, date } = this.s;
    const gapMode = !scope.pid || parsed.comparison || parsed.measures.length >= 2;
    if (!gapMode) {
      const measure = parsed.measures[0] ?? 'final';
      topic.measures = [measure];
      const result = await explainChange(this.ctx, {
        pid: scope.pid!,
        measure,
        ...(period ? { period } : {}),
      });
      if (result.kind !== 'weeks') return '';
      const where = {
        pid: asData(scope.pid),
        measure: t(`measureName.${measure}`),
        period: this.s.period(result.period),
      };
      if (result.weeks === 0) return t('explain.notFound', { pid: asData(scope.pid) });
      const top = result.jumps[0];
      if (!top) return t('why.flat', where);
      const value = (v: number | null) => (v === null ? t('explain.empty') : units(v));
      const { before, after } = top;
      const overridden =
        after.revOverrideUnits !== null ||
        after.revOverridePercent !== null ||
        after.sopOverrideUnits !== null ||
        after.sopOverridePercent !== null;
      const overrideWhat = [
        after.revOverrideUnits !== null ? `Rev ${units(after.revOverrideUnits)} ${t('why.unitsWord')}` : null,
        after.revOverridePercent !== null ? `Rev ${this.s.number(after.revOverridePercent, 2)}%` : null,
        after.sopOverrideUnits !== null
          ? `S&OP ${units(after.sopOverrideUnits)} ${t('why.unitsWord')}`
          : null,
        after.sopOverridePercent !== null ? `S&OP ${this.s.number(after.sopOverridePercent, 2)}%` : null,
      ]
        .filter(Boolean)
        .join(', ');
      const lines = [
        t('why.weeksHead', {
          ...where,
          week: date(after.weekStart),
          before: value(before[measure]),
          after: value(after[measure]),
          change: signedUnits(top.change),
        }),
        '',
        `- ${t('why.stat', { before: value(before.stat), after: value(after.stat) })}`,
        `- ${
          overridden
            ? t('why.override', {
                what: overrideWhat,
                planner: asData(after.lastUpdatedBy) || t('explain.nobody'),
                reason: asData(after.reasonCode) || t('explain.noneValue'),
                comment: after.comments ? `"${asData(after.comments)}"` : t('explain.noneValue'),
              })
            : t('why.noOverride')
        }`,
        `- ${t('why.published', { p1: value(after.p1), p2: value(after.p2) })}`,
        `- ${t('why.actual', { before: value(before.actual), after: value(after.actual) })}`,
      ];
      if (result.jumps.length > 1)
        lines.push(
          '',
          t('why.others'),
          '',
          table(
            [t('column.week'), t('column.before'), t('column.after'), t('column.change')],
            result.jumps
              .slice(1)
              .map((j) => [
                date(j.after.weekStart),
                value(j.before[measure]),
                value(j.after[measure]),
                signedUnits(j.change),
              ]),
          ),
        );
      lines.push(
        '',
        dataUsed(this.s, t('why.weeksData', { count: result.weeks, weeks: units(result.weeks) })),
      );
      return lines.join('\n');
    }
    const [a, b] = comparedMeasures(parsed);
    topic.measures = [a, b];
    const result = await explainChange(this.ctx, { ...scope, a, b, ...(period ? { period } : {}) });
    if (result.kind !== 'products') return '';
    const where = { where: describeScope(this.s, scope), period: this.s.period(result.period) };
    if (result.products.length === 0) return t('noRecords', where);
    const names = { a: t(`measureName.${a}`), b: t(`measureName.${b}`) };
    return [
      t('why.productsHead', { ...where, ...names }),
      '',
      table(
        [
          t('column.product'),
          capitalised(names.a),
          capitalised(names.b),
          t('column.gap'),
          t('column.overrides'),
          t('column.planner'),
          t('column.reason'),
          t('column.comment'),
        ],
        result.products.map((p) => [
          asData(p.pid),
          units(p.a),
          units(p.b),
          signedUnits(p.gap),
          units(p.overrides),
          asData(p.planner) || t('explain.noneValue'),
          asData(p.reasonCode) || t('explain.noneValue'),
          asData(p.comments) || t('explain.noneValue'),
        ]),
      ),
      '',
      t('why.productsTip'),
      '',
      dataUsed(this.s, t('why.productsData')),
    ].join('\n');
  }

  /** What to look at or override first: the exception queue and the forecast value add. */
  private async advice(scope: Scope): Promise<string> {
    const { t, units, money, percent } = this.s;
    const result = await reviewQueue(this.ctx, {
      ...(scope.bu ? { bu: scope.bu } : {}),
      ...(scope.pf ? { pf: scope.pf } : {}),
      ...(scope.pid ? { pid: scope.pid } : {}),
    });
    const where = describeScope(this.s, scope);
    const lines: string[] = [];
    if (result.count === 0) lines.push(t('advice.none', { where, lag: result.lag }));
    else
      lines.push(
        t('advice.head', { where, lag: result.lag, count: result.count, products: units(result.count) }),
        '',
        table(
          [
            t('column.product'),
            t('column.businessUnit'),
            t('column.family'),
            t('column.signals'),
            t('column.errorValue'),
            t('column.recentBias'),
          ],
          result.top.map((e) => [
            asData(e.pid),
            asData(e.bu),
            asData(e.pf),
            e.kinds.map((k) => t(`kind.${k}`)).join(', '),
            money(e.errorValue),
            percent(e.recentBias),
          ]),
        ),
      );
    const { final, statistical } = result.fva;
    if (final !== null && statistical !== null)
      lines.push(
        '',
        t(final <= statistical ? 'advice.fvaHelps' : 'advice.fvaHurts', {
          lag: result.lag,
          final: percent(final, 2),
          statistical: percent(statistical, 2),
        }),
      );
    lines.push('', dataUsed(this.s, t('advice.data')));
    return lines.join('\n');
  }
}

/** The same day a year before or after (29 February as 1 March). */
const shiftYear = (iso: string, years: number) =>
  `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`.replace(/-02-29$/, '-03-01');

const dayBefore = (iso: string) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
