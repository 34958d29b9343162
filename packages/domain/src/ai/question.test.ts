import { describe, expect, it } from 'vitest';
import { GREETING_SCENARIO_PROMPT, SUGGESTED_PROMPTS } from './chat';
import { comparedMeasures, parseQuestion, type Catalogue } from './question';

const catalogue: Catalogue = {
  businessUnits: ['Industrial Valves', 'Pumps & Flow', 'Instrumentation', 'CIRCOR Aerospace'],
  families: ['Ball Valves', 'Gate Valves', 'Gear Pumps', 'Seals & Gaskets'],
  regions: ['EMEA', 'North America'],
  sites: ['Dallas DC', 'Rotterdam DC'],
  planners: ['Avery Chen', 'Jordan Patel'],
  products: ['PRD-00042', 'CIR-00005'],
  clients: ['internal', 'circor'],
};
const parse = (q: string) => parseQuestion(q, catalogue);

describe('the question reader', () => {
  it('reads the four suggested prompts as their intents', () => {
    expect(SUGGESTED_PROMPTS.map((p) => parse(p).intent)).toEqual([
      'accuracy',
      'compare',
      'practices',
      'actuals',
    ]);
  });

  it("reads the greeting's scenario: name, +15%, next quarter", () => {
    expect(parse(GREETING_SCENARIO_PROMPT)).toMatchObject({
      intent: 'scenario',
      scenarioName: 'Demand Upside (End User)',
      percent: 15,
      period: { kind: 'relative', unit: 'quarter', offset: 1 },
      unknown: [],
    });
  });

  it('scores the whole question: a percentage gap of two measures for a family, not a totals table', () => {
    const parsed = parse('How far is the final plan off the stat forecast for Ball Valves, in %?');
    expect(parsed).toMatchObject({ intent: 'compare', measures: ['final', 'stat'], percentAsked: true });
    expect(parsed.scope).toEqual({ pf: ['Ball Valves'] });
    expect(parsed.unknown).toEqual([]);
    expect(parse('compare the final plan to P1 for Gate Valves')).toMatchObject({
      intent: 'compare',
      measures: ['final', 'p1'],
      scope: { pf: ['Gate Valves'] },
    });
    expect(parse('Total prelim plan')).toMatchObject({ intent: 'totals', measures: ['prelim'] });
    expect(parse('Compare the last two plan versions').intent).toBe('versions');
  });

  it('reads shorthand and misspellings, and says what it corrected', () => {
    const parsed = parse('varience fcst vs plan for instrumentaton nxt qtr');
    expect(parsed).toMatchObject({
      intent: 'compare',
      measures: ['stat', 'final'],
      scope: { bu: ['Instrumentation'] },
      period: { kind: 'relative', unit: 'quarter', offset: 1 },
      unknown: [],
    });
    expect(parsed.corrected).toEqual([
      { typed: 'varience', read: 'variance' },
      { typed: 'instrumentaton', read: 'Instrumentation' },
    ]);
    expect(parse('forcast for pumps and flwo').scope).toEqual({ bu: ['Pumps & Flow'] });
    expect(parse('overides by jordan patle')).toMatchObject({
      intent: 'overrides',
      scope: { planner: ['Jordan Patel'] },
    });
    expect(parse('plan for PRD-42').scope).toEqual({ pid: 'PRD-00042' });
  });

  it('asks which one when a word fits several names, and names words it cannot place', () => {
    expect(parse('plan for valves').suggestions).toEqual([
      { typed: 'valves', candidates: ['Ball Valves', 'Gate Valves', 'Industrial Valves'] },
    ]);
    expect(parse('total plan for xyzzy bananas').unknown).toEqual(['xyzzy', 'bananas']);
    expect(parse('plan for PRD-99999').unknown).toEqual(['PRD-99999']);
  });

  it('reads relative periods in four languages', () => {
    const period = (q: string) => parse(q).period;
    expect(period('actuals last month')).toEqual({ kind: 'relative', unit: 'month', offset: -1 });
    expect(period('plan next yr')).toEqual({ kind: 'relative', unit: 'year', offset: 1 });
    expect(period('ventes du mois dernier')).toEqual({ kind: 'relative', unit: 'month', offset: -1 });
    expect(period('Istwerte im letzten Monat')).toEqual({ kind: 'relative', unit: 'month', offset: -1 });
    expect(period('ventas del mes pasado')).toEqual({ kind: 'relative', unit: 'month', offset: -1 });
    expect(period('actuals lately')).toEqual({ kind: 'lately' });
    expect(period('bookings ytd')).toEqual({ kind: 'ytd' });
    expect(period('sales last 8 weeks')).toEqual({ kind: 'lastWeeks', weeks: 8 });
    expect(parse('this year vs last year actuals')).toMatchObject({
      intent: 'compare',
      yoy: true,
      period: { kind: 'relative', unit: 'year', offset: 0 },
    });
  });

  it('knows a yes-or-no question, why and what-to-do', () => {
    expect(parse('Are we over-forecasting Instrumentation?')).toMatchObject({
      intent: 'accuracy',
      yesNo: true,
      side: 'above',
    });
    expect(parse('¿Estamos sobreestimando Instrumentation?')).toMatchObject({ yesNo: true, side: 'above' });
    expect(parse('Why did PRD-00042 jump?')).toMatchObject({ intent: 'why', scope: { pid: 'PRD-00042' } });
    expect(parse('What should I override?').intent).toBe('advice');
    expect(parse('Que dois-je regarder en priorité ?')).toMatchObject({ intent: 'advice', unknown: [] });
  });

  it('reads two periods in the order named, for one measure compared across them', () => {
    expect(parse('final plan Q1 vs Q4')).toMatchObject({
      intent: 'compare',
      measures: ['final'],
      periods: [
        { kind: 'quarter', q: 1 },
        { kind: 'quarter', q: 4 },
      ],
      period: { kind: 'quarter', q: 1 },
    });
    expect(parse('this quarter vs last quarter actuals').periods).toEqual([
      { kind: 'relative', unit: 'quarter', offset: 0 },
      { kind: 'relative', unit: 'quarter', offset: -1 },
    ]);
    expect(parse("Compare next month's plan with this month's").periods).toEqual([
      { kind: 'relative', unit: 'month', offset: 1 },
      { kind: 'relative', unit: 'month', offset: 0 },
    ]);
    expect(parse('Dec vs Nov final plan').periods).toEqual([
      { kind: 'month', m: 12 },
      { kind: 'month', m: 11 },
    ]);
    expect(parse('Is 2026-Q4 higher than Q3 2026?')).toMatchObject({ yesNo: true, side: 'above' });
    // A year written once covers the bare quarter beside it; two different years leave it bare.
    expect(parse('final plan Q2 vs Q1 2027').periods).toEqual([
      { kind: 'quarter', q: 2, year: 2027 },
      { kind: 'quarter', q: 1, year: 2027 },
    ]);
    expect(parse('final plan Q4 2026 vs Q1 2027 vs Q2').periods).toContainEqual({ kind: 'quarter', q: 2 });
    // One period keeps the list empty; "this year vs last year" stays a year-over-year question.
    expect(parse('final plan for Q3').periods).toEqual([]);
    expect(parse('this year vs last year actuals')).toMatchObject({ yoy: true, periods: [] });
  });

  it('reads a product id typed with a space or no hyphen, and quotes unknown words as typed', () => {
    expect(parse('PRD 00042 final plan').scope).toEqual({ pid: 'PRD-00042' });
    expect(parse('fcst for prd00042').scope).toEqual({ pid: 'PRD-00042' });
    expect(parse('plan in 2026').scope).toEqual({});
    expect(parse('final plan for Zorbex').unknown).toEqual(['Zorbex']);
  });

  it('reads French quarters, German Ist-Werte, a planner by first name, and keeps unknown names unknown', () => {
    expect(parse('plan final T1 contre T4').periods).toEqual([
      { kind: 'quarter', q: 1 },
      { kind: 'quarter', q: 4 },
    ]);
    expect(parse('Ist-Werte dieses Quartal gegenüber letztem Quartal')).toMatchObject({
      yesNo: false,
      measures: ['actual'],
      unknown: [],
    });
    expect(parse('overrides by Jordan last month').scope).toEqual({ planner: ['Jordan Patel'] });
    // A name missing from the catalogue is not read as a word that carries nothing ("every").
    expect(parse('Did Avery Smith change anything?')).toMatchObject({
      intent: 'overrides',
      unknown: ['Smith'],
    });
    expect(parse('Did Emery Smith change anything?').unknown).toEqual(['Emery', 'Smith']);
  });

  it('knows a Spanish yes-or-no question opened without a verb', () => {
    expect(parse('¿El plan final está por encima del pronóstico?')).toMatchObject({
      yesNo: true,
      side: 'above',
    });
    expect(parse('¿Cuánto es el plan final?').yesNo).toBe(false);
    expect(parse('¿Por qué subió PRD-00042?').yesNo).toBe(false);
  });

  it('sets a comparison subject first whatever the order named', () => {
    expect(comparedMeasures({ measures: ['stat', 'final'] })).toEqual(['final', 'stat']);
    expect(comparedMeasures({ measures: ['p1'] })).toEqual(['final', 'p1']);
    expect(comparedMeasures({ measures: ['final', 'actual'] })).toEqual(['actual', 'final']);
    expect(comparedMeasures({ measures: [] })).toEqual(['final', 'stat']);
  });
});
