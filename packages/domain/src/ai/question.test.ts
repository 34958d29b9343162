import { describe, expect, it } from 'vitest';
import { GREETING_SCENARIO_PROMPT, SUGGESTED_PROMPTS } from './chat';
import { parseQuestion } from './question';

const vocabulary = {
  businessUnits: ['Industrial Valves', 'Pumps & Flow', 'Instrumentation'],
  families: ['Ball Valves', 'Gear Pumps'],
  regions: ['EMEA', 'North America'],
};
const parse = (q: string) => parseQuestion(q, vocabulary);

describe('the question grammar', () => {
  it('reads the four suggested prompts as their intents', () => {
    expect(SUGGESTED_PROMPTS.map((p) => parse(p).intent)).toEqual([
      'accuracy',
      'variance',
      'best-practices',
      'actuals',
    ]);
  });

  it("reads the greeting's scenario: name, +15%, Q3 without a year", () => {
    expect(parse(GREETING_SCENARIO_PROMPT)).toEqual({
      intent: 'scenario',
      scenarioName: 'Demand Upside (End User)',
      percent: 15,
      quarter: { q: 3 },
    });
  });

  it('reads a what-if with a direction word, a business unit and a quarter with its year', () => {
    expect(parse('What if demand is down 10% in Q1 2027 for Pumps & Flow?')).toEqual({
      intent: 'scenario',
      percent: -10,
      quarter: { q: 1, year: 2027 },
      bu: 'Pumps & Flow',
    });
    expect(parse('increase by 7.5% in 2026-Q4')).toMatchObject({
      intent: 'scenario',
      percent: 7.5,
      quarter: { q: 4, year: 2026 },
    });
  });

  it('does not run a scenario without a percentage', () => {
    expect(parse('What if we had a scenario?').intent).toBe('unknown');
  });

  it('reads a product id and a week in either form', () => {
    expect(parse('Explain prd-00042 week 20261115')).toEqual({
      intent: 'explain',
      pid: 'PRD-00042',
      week: '2026-11-15',
    });
    expect(parse('Why is CIR-0007 on 2026-11-22 so high?')).toMatchObject({
      intent: 'explain',
      pid: 'CIR-0007',
      week: '2026-11-22',
    });
    expect(parse('PRD-00042')).toEqual({ intent: 'totals', pid: 'PRD-00042' });
    expect(parse('week 2026-02-30').week).toBeUndefined();
  });

  it('reads months, with "may" as a month only when a year follows', () => {
    expect(parse('Total revenue in March 2027')).toMatchObject({
      intent: 'totals',
      month: { m: 3, year: 2027 },
    });
    expect(parse('Total revenue in May 2027').month).toEqual({ m: 5, year: 2027 });
    expect(parse('May I see the total revenue?').month).toBeUndefined();
  });

  it('prefers the longest name and whole words, and reads families and regions', () => {
    expect(parse('Largest overrides for Ball Valves in EMEA')).toEqual({
      intent: 'overrides',
      pf: 'Ball Valves',
      region: 'EMEA',
    });
    expect(parse('instrumentation accuracy')).toMatchObject({ intent: 'accuracy', bu: 'Instrumentation' });
  });

  it('tells comparisons of plan versions, variance and totals apart', () => {
    expect(parse('Compare the last two plan versions').intent).toBe('compare');
    expect(parse('What is the gap to the forecast for EMEA?').intent).toBe('variance');
    expect(parse('How much revenue is planned in Q2?')).toMatchObject({
      intent: 'totals',
      quarter: { q: 2 },
    });
    expect(parse('Industrial Valves')).toEqual({ intent: 'totals', bu: 'Industrial Valves' });
    expect(parse('Tell me a joke').intent).toBe('unknown');
  });

  it("reads an accuracy question's lag, only within the Forecast Accuracy screen's 1–13 weeks", () => {
    expect(parse('How accurate is our forecast at lag 4 for Gear Pumps?')).toMatchObject({
      intent: 'accuracy',
      lag: 4,
      pf: 'Gear Pumps',
    });
    expect(parse('Forecast error 13 weeks ahead').lag).toBe(13);
    expect(parse('Bias at lag 14').lag).toBeUndefined();
    expect(parse('Accuracy at lag 0').lag).toBeUndefined();
    expect(parse('How accurate is our forecast?').lag).toBeUndefined();
  });
});
