import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import {
  TODAY,
  askEveryQuestion,
  yearOverYear,
  yesNo,
  dollars,
  pct,
  recordSums,
  signedUnits,
  units,
  type Case,
  type Expectation,
  type Filter,
  type MeasureKey,
} from './support/planner-questions';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * The planner question set: questions as planners type them (phrasings, shorthand, misspellings,
 * relative periods, comparisons, why and what-to-do, yes or no, four languages, circor's scope),
 * each with the figures the answer must hold, computed here straight from the tables or from the
 * control tower's own endpoints, never from the analyst's code. One seeded server answers all.
 * The server's clock is set to the seed's current week, so relative periods
 * are known: this week 11/15/2026, this month November 2026, this quarter 2026-Q4.
 */
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const dayBefore = (iso: string) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const range = (from: string, to: string) => `${usDate(from)} – ${usDate(dayBefore(to))}`;

/** Periods of the planning calendar seen from TODAY (weeks by their Sunday, [from, to)). */
const P = {
  thisWeek: { from: '2026-11-15', to: '2026-11-22' },
  lastWeek: { from: '2026-11-08', to: '2026-11-15' },
  nextWeek: { from: '2026-11-22', to: '2026-11-29' },
  thisMonth: { from: '2026-11-01', to: '2026-12-01' },
  lastMonth: { from: '2026-10-01', to: '2026-11-01' },
  nextMonth: { from: '2026-12-01', to: '2027-01-01' },
  thisQuarter: { from: '2026-10-01', to: '2027-01-01' },
  lastQuarter: { from: '2026-07-01', to: '2026-10-01' },
  nextQuarter: { from: '2027-01-01', to: '2027-04-01' },
  thisYear: { from: '2026-01-01', to: '2027-01-01' },
  nextYear: { from: '2027-01-01', to: '2028-01-01' },
  lately: { from: '2026-08-16', to: '2026-11-15' },
  ytd: { from: '2026-01-01', to: '2026-11-16' },
  last8Weeks: { from: '2026-09-20', to: '2026-11-15' },
} as const;

describe.each(backends.slice(0, 1))('the planner question set on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    process.env.AI_CHAT_REQUESTS_PER_MINUTE = '100000';
    server = await startTestServer(backend, { products: 30, weeks: 26 });
    server.clock.setToday(new Date(`${TODAY}T12:00:00Z`));
  });
  afterAll(async () => {
    delete process.env.AI_CHAT_REQUESTS_PER_MINUTE;
    await server?.close();
  });

  const db = () => server.database.db;

  const sums = (f: Filter = {}) => recordSums(server, f);
  const rev = (m: MeasureKey) => `${m}Rev` as const;

  /** The figures a comparison of two measures must show: both, the gap and the gap in %. */
  const compare = async (
    f: Filter,
    a: MeasureKey,
    b: MeasureKey,
    extra: string[] = [],
  ): Promise<Expectation> => {
    const s = await sums(f);
    return {
      contains: [units(s[a]), units(s[b]), signedUnits(s[a] - s[b]), pct(s[a], s[b]), ...extra],
    };
  };
  /** The figure one measure must show, in units (and its revenue when asked). */
  const measure = async (
    f: Filter,
    m: MeasureKey,
    money = false,
    extra: string[] = [],
  ): Promise<Expectation> => {
    const s = await sums(f);
    return { contains: [units(s[m]), ...(money ? [dollars(s[rev(m)])] : []), ...extra] };
  };
  /** Year over year: a measure over the weeks asked (that hold records) against the actual bookings of the same weeks 52 weeks before. */
  const yoy = (asked: Filter, m: MeasureKey) => yearOverYear(server, asked, m);
  /** The product whose final plan moved most from one week to the next, with both weeks. */
  const largestJump = async (pid: string, m: 'final_pln_units' | 'act_bkg_units' = 'final_pln_units') => {
    const { rows } = await sql<{ week: string; before: number; after: number }>`
      select week_start::text as week, prev::float8 as before, cur::float8 as after from (
        select week_start, ${sql.ref(m)} as cur, lag(${sql.ref(m)}) over (order by week_start) as prev
        from demand_records where pid = ${pid}) x
      where prev is not null and cur is not null
      order by abs(cur - prev) desc, week_start limit 1`.execute(db());
    const row = rows[0]!;
    return { contains: [usDate(row.week), units(row.before), units(row.after)] };
  };
  /** Products of a scope by |final − other| over the weeks, largest first. */
  const largestGaps = async (
    f: Filter,
    other: 'ensemble_fcst_units' | 'p1_pub_pln_units' = 'ensemble_fcst_units',
  ) => {
    const { rows } = await sql<{ pid: string; gap: number }>`
      select p.pid, sum(r.final_pln_units - ${sql.ref(`r.${other}`)})::float8 as gap
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = any(${f.clients ?? ['internal', 'circor']}::text[])
        ${f.bu ? sql`and p.bu = ${f.bu}` : sql``} ${f.pf ? sql`and p.pf = ${f.pf}` : sql``}
        ${f.from ? sql`and r.week_start >= ${f.from}::date` : sql``} ${f.to ? sql`and r.week_start < ${f.to}::date` : sql``}
      group by p.pid order by abs(sum(r.final_pln_units - ${sql.ref(`r.${other}`)})) desc, p.pid limit 3`.execute(
      db(),
    );
    return { contains: rows.slice(0, 2).flatMap((r) => [r.pid, signedUnits(r.gap)]) };
  };
  /** The control tower's exception queue and accuracy at lag 1 (its own endpoints). */
  const exceptions = async (as: 'admin' | 'circor' = 'admin') => {
    const { body } = await server.request<Ok<Array<{ pid: string; bu: string; pf: string }>>>(
      'GET',
      '/api/control-tower/exceptions?lag=1',
      undefined,
      { as },
    );
    return body.data;
  };
  const accuracy = async (as: 'admin' | 'circor' = 'admin') => {
    const { body } = await server.request<
      Ok<{
        overall: { bias: number | null };
        fva: { statistical: number | null; final: number | null };
        byBusinessUnit: Array<{ bu: string; metrics: { bias: number | null; accuracy: number | null } }>;
      }>
    >('GET', '/api/control-tower/accuracy?lag=1', undefined, { as });
    return body.data;
  };
  const advice = async (bu?: string, as: 'admin' | 'circor' = 'admin'): Promise<Expectation> => {
    const queue = (await exceptions(as)).filter((e) => !bu || e.bu === bu);
    return { contains: queue.slice(0, 3).map((e) => e.pid) };
  };
  const overBias = async (bu: string) =>
    ((await accuracy()).byBusinessUnit.find((r) => r.bu === bu)!.metrics.bias ?? 0) > 0;
  const unknownWord = (word: string, extra: string[] = []): Expectation => ({
    contains: [`I don't know “${word}”`, ...extra],
  });

  const IN = { bu: 'Instrumentation' } as const;
  const PF = { bu: 'Pumps & Flow' } as const;
  const IV = { bu: 'Industrial Valves' } as const;
  const AS = { bu: 'Aftermarket Services' } as const;
  const CIRCOR = { clients: ['circor'] };

  const cases: Case[] = [
    // Intents asked many ways (whole plan unless a scope is named).
    ...[
      'Where is the plan above or below the forecast?',
      'Show the variance',
      'How far is the final plan off the forecast?',
      'final plan against the statistical forecast',
      'What is the gap between plan and forecast?',
      'plan minus forecast please',
      'difference between final plan and stat forecast',
      'How does the plan compare with the forecast?',
    ].map((question): Case => ({
      category: 'phrasing',
      question,
      expect: () => compare({}, 'final', 'stat'),
    })),
    ...[
      'Total plan revenue',
      'What is the total final plan?',
      'How much is planned in total?',
      'Give me the totals',
      'plan totals',
    ].map((question): Case => ({ category: 'phrasing', question, expect: () => measure({}, 'final', true) })),
    { category: 'phrasing', question: 'Total prelim plan', expect: () => measure({}, 'prelim') },
    {
      category: 'phrasing',
      question: 'What is the preliminary plan for Pumps & Flow?',
      expect: () => measure(PF, 'prelim'),
    },
    {
      category: 'phrasing',
      question: 'How many units does the P2 plan hold?',
      expect: () => measure({}, 'p2'),
    },
    {
      category: 'phrasing',
      question: 'What did we book in actuals for Industrial Valves?',
      expect: () => measure(IV, 'actual', true),
    },
    {
      category: 'phrasing',
      question: 'How should I interpret the actuals?',
      expect: () => measure({}, 'actual', true),
    },
    {
      category: 'phrasing',
      question: 'Total forecast for Aftermarket Services',
      expect: () => measure(AS, 'stat'),
    },
    {
      category: 'phrasing',
      question: 'final plan for Ball Valves',
      expect: () => measure({ pf: 'Ball Valves' }, 'final'),
    },
    { category: 'phrasing', question: 'plan for EMEA', expect: () => measure({ region: 'EMEA' }, 'final') },
    {
      category: 'phrasing',
      question: 'What is planned at Toronto Plant?',
      expect: () => measure({ site: 'Toronto Plant' }, 'final'),
    },
    {
      category: 'phrasing',
      question: 'total plan for PRD-00003',
      expect: () => measure({ pid: 'PRD-00003' }, 'final'),
    },
    {
      category: 'phrasing',
      question: 'Overrides by Sam Lindqvist',
      expect: async () => ({ contains: [units((await sums({ planner: 'Sam Lindqvist' })).records)] }),
    },
    {
      category: 'phrasing',
      question: 'How accurate is our forecast?',
      expect: async () => ({ contains: ['Accuracy'] }),
    },
    {
      category: 'phrasing',
      question: 'Compare the last two plan versions',
      expect: async () => ({ contains: ['Cycle 2026-W45', 'Cycle 2026-W32'] }),
    },

    // Shorthand and synonyms.
    { category: 'shorthand', question: 'fcst vs plan', expect: () => compare({}, 'final', 'stat') },
    { category: 'shorthand', question: 'stat fcst for Instrumentation', expect: () => measure(IN, 'stat') },
    {
      category: 'shorthand',
      question: 'final vs stat Instrumentation',
      expect: () => compare(IN, 'final', 'stat'),
    },
    { category: 'shorthand', question: 'plan vs fcst in %', expect: () => compare({}, 'final', 'stat') },
    { category: 'shorthand', question: 'rev plan Pumps & Flow', expect: () => measure(PF, 'final', true) },
    {
      category: 'shorthand',
      question: 'qty final plan Industrial Valves',
      expect: () => measure(IV, 'final'),
    },
    { category: 'shorthand', question: 'act vs fcst', expect: () => compare({}, 'actual', 'stat') },
    {
      category: 'shorthand',
      question: 'actuals vs plan lately',
      expect: () => compare(P.lately, 'actual', 'final'),
    },
    { category: 'shorthand', question: 'final v P1', expect: () => compare({}, 'final', 'p1') },
    {
      category: 'shorthand',
      question: 'how far off P1 is the plan for Instrumentation?',
      expect: () => compare(IN, 'final', 'p1'),
    },
    {
      category: 'shorthand',
      question: 'gap to P2 for Pumps & Flow',
      expect: () => compare(PF, 'final', 'p2'),
    },
    {
      category: 'shorthand',
      question: 'bookings vs forecast last qtr',
      expect: () => compare({ ...P.lastQuarter }, 'actual', 'stat'),
    },
    { category: 'shorthand', question: 'yoy actuals lately', expect: () => yoy({ ...P.lately }, 'actual') },
    { category: 'shorthand', question: 'plan nxt qtr vs ly', expect: () => yoy(P.nextQuarter, 'final') },
    {
      category: 'shorthand',
      question: 'consensus vs baseline for EMEA',
      expect: () => compare({ region: 'EMEA' }, 'final', 'stat'),
    },
    {
      category: 'shorthand',
      question: 'delta prelim vs final',
      expect: () => compare({}, 'final', 'prelim'),
    },
    {
      category: 'shorthand',
      question: 'S&OP plan vs stat for Ball Valves',
      expect: () => compare({ pf: 'Ball Valves' }, 'final', 'stat'),
    },
    { category: 'shorthand', question: 'plan qty this wk', expect: () => measure(P.thisWeek, 'final') },
    {
      category: 'shorthand',
      question: 'act rev last mth',
      expect: () => measure(P.lastMonth, 'actual', true),
    },
    { category: 'shorthand', question: 'fcst bias?', expect: async () => ({ contains: ['Bias'] }) },
    { category: 'shorthand', question: 'sales last 8 weeks', expect: () => measure(P.last8Weeks, 'actual') },

    // Misspellings.
    {
      category: 'misspelling',
      question: 'varience for instrumentaton',
      expect: () => compare(IN, 'final', 'stat'),
    },
    {
      category: 'misspelling',
      question: 'total plan for Instrumentaion',
      expect: () => measure(IN, 'final'),
    },
    { category: 'misspelling', question: 'forcast for Pumps and Flwo', expect: () => measure(PF, 'stat') },
    {
      category: 'misspelling',
      question: 'plan vs forcast for Industral Valves',
      expect: () => compare(IV, 'final', 'stat'),
    },
    {
      category: 'misspelling',
      question: 'acutals for Aftermarket Servces',
      expect: () => measure(AS, 'actual'),
    },
    {
      category: 'misspelling',
      question: 'final plan for Ball Valvs',
      expect: () => measure({ pf: 'Ball Valves' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'plan for Centrifugal Pumsp',
      expect: () => measure({ pf: 'Centrifugal Pumps' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'plan for North Amercia',
      expect: () => measure({ region: 'North America' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'preliminery plan Instrumentation',
      expect: () => measure(IN, 'prelim'),
    },
    {
      category: 'misspelling',
      question: 'statistcal forecast next quater',
      expect: () => measure(P.nextQuarter, 'stat'),
    },
    {
      category: 'misspelling',
      question: 'totl revenu for Seals and Gaskets',
      expect: () => measure({ pf: 'Seals & Gaskets' }, 'final', true),
    },
    {
      category: 'misspelling',
      question: 'plan at Rotterdam DC vs forecst',
      expect: () => compare({ site: 'Rotterdam DC' }, 'final', 'stat'),
    },
    {
      category: 'misspelling',
      question: 'overides by Jordan Patle',
      expect: async () => ({ contains: [units((await sums({ planner: 'Jordan Patel' })).records)] }),
    },
    {
      category: 'misspelling',
      question: 'plan for PRD-3',
      expect: () => measure({ pid: 'PRD-00003' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'plan vs forecast for valves',
      expect: async () => ({ contains: ['Did you mean', 'Ball Valves'] }),
    },
    {
      category: 'misspelling',
      question: 'accuracey of the forecast',
      expect: async () => ({ contains: ['Accuracy'] }),
    },

    // Relative periods.
    {
      category: 'relative period',
      question: 'Total plan this week',
      expect: () => measure(P.thisWeek, 'final', false, [range(P.thisWeek.from, P.thisWeek.to)]),
    },
    {
      category: 'relative period',
      question: 'plan next week',
      expect: () => measure(P.nextWeek, 'final', false, [range(P.nextWeek.from, P.nextWeek.to)]),
    },
    {
      category: 'relative period',
      question: 'actuals last week',
      expect: () => measure(P.lastWeek, 'actual', false, [range(P.lastWeek.from, P.lastWeek.to)]),
    },
    {
      category: 'relative period',
      question: 'plan this month',
      expect: () => measure(P.thisMonth, 'final', false, ['November 2026']),
    },
    {
      category: 'relative period',
      question: 'actuals last month',
      expect: () => measure(P.lastMonth, 'actual', false, ['October 2026']),
    },
    {
      category: 'relative period',
      question: 'forecast next month',
      expect: () => measure(P.nextMonth, 'stat', false, ['December 2026']),
    },
    {
      category: 'relative period',
      question: 'plan this quarter',
      expect: () => measure(P.thisQuarter, 'final', false, ['2026-Q4']),
    },
    {
      category: 'relative period',
      question: 'plan next quarter',
      expect: () => measure(P.nextQuarter, 'final', false, ['2027-Q1']),
    },
    {
      category: 'relative period',
      question: 'actuals last quarter',
      expect: () => measure(P.lastQuarter, 'actual', false, ['2026-Q3']),
    },
    {
      category: 'relative period',
      question: 'total plan this year',
      expect: () => measure(P.thisYear, 'final', false, ['2026']),
    },
    {
      category: 'relative period',
      question: 'plan next year',
      expect: () => measure(P.nextYear, 'final', false, ['2027']),
    },
    {
      category: 'relative period',
      question: 'plan next yr for Instrumentation',
      expect: () => measure({ ...IN, ...P.nextYear }, 'final'),
    },
    {
      category: 'relative period',
      question: 'actuals lately',
      expect: () => measure(P.lately, 'actual', false, [range(P.lately.from, P.lately.to)]),
    },
    {
      category: 'relative period',
      question: 'how have actuals been recently for Pumps & Flow?',
      expect: () => measure({ ...PF, ...P.lately }, 'actual'),
    },
    { category: 'relative period', question: 'actuals ytd', expect: () => measure(P.ytd, 'actual') },
    {
      category: 'relative period',
      question: 'year to date bookings for Industrial Valves',
      expect: () => measure({ ...IV, ...P.ytd }, 'actual'),
    },
    {
      category: 'relative period',
      question: 'plan vs forecast next quarter',
      expect: () => compare(P.nextQuarter, 'final', 'stat'),
    },
    {
      category: 'relative period',
      question: 'variance this quarter for Instrumentation',
      expect: () => compare({ ...IN, ...P.thisQuarter }, 'final', 'stat'),
    },
    {
      category: 'relative period',
      question: 'plan for the coming month',
      expect: () => measure(P.nextMonth, 'final'),
    },
    {
      category: 'relative period',
      question: 'actuals for the previous month',
      expect: () => measure(P.lastMonth, 'actual'),
    },
    {
      category: 'relative period',
      question: 'forecast for the current quarter',
      expect: () => measure(P.thisQuarter, 'stat'),
    },
    {
      category: 'relative period',
      question: 'plan in Q1',
      expect: () => measure(P.nextQuarter, 'final', false, ['2027-Q1']),
    },
    {
      category: 'relative period',
      question: 'plan in December',
      expect: () => measure(P.nextMonth, 'final'),
    },
    {
      category: 'relative period',
      question: 'actuals in Sep 2026',
      expect: () => measure({ from: '2026-09-01', to: '2026-10-01' }, 'actual'),
    },
    {
      category: 'relative period',
      question: 'plan week 2026-11-22',
      expect: () => measure(P.nextWeek, 'final'),
    },
    {
      category: 'relative period',
      question: 'final plan for the last 8 weeks',
      expect: () => measure(P.last8Weeks, 'final'),
    },

    // Comparisons between any two measures or versions, for any scope.
    {
      category: 'comparison',
      question: 'How far is the final plan off the stat forecast for Instrumentation, in %?',
      expect: () => compare(IN, 'final', 'stat'),
    },
    {
      category: 'comparison',
      question: 'final plan vs P1 for Ball Valves',
      expect: () => compare({ pf: 'Ball Valves' }, 'final', 'p1'),
    },
    {
      category: 'comparison',
      question: 'compare the final plan to P1 for Pumps & Flow',
      expect: () => compare(PF, 'final', 'p1'),
    },
    {
      category: 'comparison',
      question: 'final vs P2 next quarter',
      expect: () => compare(P.nextQuarter, 'final', 'p2'),
    },
    { category: 'comparison', question: 'P1 vs P2', expect: () => compare({}, 'p1', 'p2') },
    {
      category: 'comparison',
      question: 'actuals vs P1 lately',
      expect: () => compare(P.lately, 'actual', 'p1'),
    },
    {
      category: 'comparison',
      question: 'actuals vs prelim plan last quarter',
      expect: () => compare(P.lastQuarter, 'actual', 'prelim'),
    },
    {
      category: 'comparison',
      question: 'actuals vs the statistical forecast for EMEA',
      expect: () => compare({ region: 'EMEA' }, 'actual', 'stat'),
    },
    {
      category: 'comparison',
      question: 'prelim vs stat for Industrial Valves',
      expect: () => compare(IV, 'prelim', 'stat'),
    },
    {
      category: 'comparison',
      question: 'final plan vs actuals last month for Aftermarket Services',
      expect: () => compare({ ...AS, ...P.lastMonth }, 'actual', 'final'),
    },
    {
      category: 'comparison',
      question: 'this year vs last year actuals',
      expect: () => yoy(P.thisYear, 'actual'),
    },
    {
      category: 'comparison',
      question: 'actuals lately compared to last year',
      expect: () => yoy(P.lately, 'actual'),
    },
    {
      category: 'comparison',
      question: 'final plan next quarter vs last year',
      expect: () => yoy(P.nextQuarter, 'final'),
    },
    {
      category: 'comparison',
      question: 'year over year plan for Instrumentation next quarter',
      expect: () => yoy({ ...IN, ...P.nextQuarter }, 'final'),
    },
    {
      category: 'comparison',
      question: 'Is the plan higher than the forecast for Gate Valves?',
      expect: async () => {
        const s = await sums({ pf: 'Gate Valves' });
        return yesNo(s.final > s.stat, [units(s.final), units(s.stat)]);
      },
    },
    {
      category: 'comparison',
      question: 'plan versus published plan for LATAM',
      expect: () => compare({ region: 'LATAM' }, 'final', 'p1'),
    },
    {
      category: 'comparison',
      question: 'difference between P1 and actuals for Pressure Gauges',
      expect: () => compare({ pf: 'Pressure Gauges' }, 'actual', 'p1'),
    },
    {
      category: 'comparison',
      question: 'stat vs prelim vs final',
      expect: () => compare({}, 'final', 'prelim'),
    },
    {
      category: 'comparison',
      question: 'final vs stat revenue for Flow Meters',
      expect: async () => {
        const s = await sums({ pf: 'Flow Meters' });
        return { contains: [dollars(s.finalRev), dollars(s.statRev)] };
      },
    },
    {
      category: 'comparison',
      question: 'plan vs forecast at Dallas DC next quarter',
      expect: () => compare({ site: 'Dallas DC', ...P.nextQuarter }, 'final', 'stat'),
    },
    {
      category: 'comparison',
      question: 'final vs stat for PRD-00007',
      expect: () => compare({ pid: 'PRD-00007' }, 'final', 'stat'),
    },
    {
      category: 'comparison',
      question: 'how much above forecast is the plan in APAC?',
      expect: () => compare({ region: 'APAC' }, 'final', 'stat'),
    },

    // Why.
    { category: 'why', question: 'Why did PRD-00001 jump?', expect: () => largestJump('PRD-00001') },
    {
      category: 'why',
      question: 'why did the plan for PRD-00002 change?',
      expect: () => largestJump('PRD-00002'),
    },
    {
      category: 'why',
      question: 'what caused the spike in PRD-00004?',
      expect: () => largestJump('PRD-00004'),
    },
    {
      category: 'why',
      question: 'why did actuals of PRD-00006 drop?',
      expect: () => largestJump('PRD-00006', 'act_bkg_units'),
    },
    {
      category: 'why',
      question: 'Why is the plan above the forecast for Pumps & Flow?',
      expect: () => largestGaps(PF),
    },
    {
      category: 'why',
      question: 'why is Instrumentation off forecast next quarter?',
      expect: () => largestGaps({ ...IN, ...P.nextQuarter }),
    },
    {
      category: 'why',
      question: 'why did the plan move vs P1 for Industrial Valves?',
      expect: () => largestGaps(IV, 'p1_pub_pln_units'),
    },
    { category: 'why', question: 'why the gap between plan and forecast?', expect: () => largestGaps({}) },
    {
      category: 'why',
      question: 'why is CIR-00005 different from forecast?',
      expect: async () => {
        const s = await sums({ pid: 'CIR-00005' });
        return { contains: ['CIR-00005', signedUnits(s.final - s.stat)] };
      },
    },

    // What to do.
    { category: 'what to do', question: 'What should I override?', expect: () => advice() },
    { category: 'what to do', question: 'what should I look at first?', expect: () => advice() },
    {
      category: 'what to do',
      question: 'Where should I focus for Instrumentation?',
      expect: () => advice('Instrumentation'),
    },
    { category: 'what to do', question: 'which products need attention?', expect: () => advice() },
    { category: 'what to do', question: 'what should I review before publishing?', expect: () => advice() },
    {
      category: 'what to do',
      question: 'any exceptions for Pumps & Flow?',
      expect: () => advice('Pumps & Flow'),
    },
    { category: 'what to do', question: 'top priorities this week', expect: () => advice() },
    {
      category: 'what to do',
      question: 'What are the best practices for overrides?',
      expect: async () => ({ contains: ['Override best practices'] }),
    },

    // Yes or no.
    {
      category: 'yes/no',
      question: 'Are we over-forecasting Instrumentation?',
      expect: async () => yesNo(await overBias('Instrumentation')),
    },
    {
      category: 'yes/no',
      question: 'Are we under-forecasting Pumps & Flow?',
      expect: async () => yesNo(!(await overBias('Pumps & Flow'))),
    },
    {
      category: 'yes/no',
      question: 'Is the final plan above the stat forecast for Pumps & Flow next quarter?',
      expect: async () => {
        const s = await sums({ ...PF, ...P.nextQuarter });
        return yesNo(s.final > s.stat, [units(s.final), units(s.stat)]);
      },
    },
    {
      category: 'yes/no',
      question: 'Is the plan below P1 for Industrial Valves?',
      expect: async () => {
        const s = await sums(IV);
        return yesNo(s.final < s.p1, [units(s.final), units(s.p1)]);
      },
    },
    {
      category: 'yes/no',
      question: 'Did actuals beat the forecast last month?',
      expect: async () => {
        const s = await sums(P.lastMonth);
        return yesNo(s.actual > s.stat, [units(s.actual), units(s.stat)]);
      },
    },
    {
      category: 'yes/no',
      question: 'Were actuals below plan lately for Aftermarket Services?',
      expect: async () => {
        const s = await sums({ ...AS, ...P.lately });
        return yesNo(s.actual < s.final, [units(s.actual), units(s.final)]);
      },
    },
    {
      category: 'yes/no',
      question: 'Is the plan for EMEA higher than P2?',
      expect: async () => {
        const s = await sums({ region: 'EMEA' });
        return yesNo(s.final > s.p2, [units(s.final), units(s.p2)]);
      },
    },
    {
      category: 'yes/no',
      question: 'is our forecast biased high?',
      expect: async () => yesNo(((await accuracy()).overall.bias ?? 0) > 0),
    },
    {
      category: 'yes/no',
      question: 'Do overrides add value?',
      expect: async () => {
        const { fva } = await accuracy();
        return yesNo((fva.final ?? 0) <= (fva.statistical ?? 0));
      },
    },
    {
      category: 'yes/no',
      question: 'Is the prelim plan above the final plan this quarter?',
      expect: async () => {
        const s = await sums(P.thisQuarter);
        return yesNo(s.prelim > s.final, [units(s.prelim), units(s.final)]);
      },
    },

    // The four languages (answers in the user's language, numbers in US format).
    {
      category: 'languages',
      language: 'french',
      question:
        "Quel est l'écart entre le plan final et la prévision statistique pour Instrumentation le trimestre prochain ?",
      expect: () => compare({ ...IN, ...P.nextQuarter }, 'final', 'stat'),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Ventes du mois dernier',
      expect: () => measure(P.lastMonth, 'actual'),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Plan final contre P1 pour Pumps & Flow',
      expect: () => compare(PF, 'final', 'p1'),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Est-ce que nous surestimons Instrumentation ?',
      expect: async () => yesNo(await overBias('Instrumentation'), [], ['Oui', 'Non']),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Que dois-je regarder en priorité ?',
      expect: () => advice(),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'prévision de la semaine prochaine',
      expect: () => measure(P.nextWeek, 'stat'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Abweichung zwischen finalem Plan und Prognose für Instrumentation im nächsten Quartal',
      expect: () => compare({ ...IN, ...P.nextQuarter }, 'final', 'stat'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Istwerte im letzten Monat',
      expect: () => measure(P.lastMonth, 'actual'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Überschätzen wir Instrumentation?',
      expect: async () => yesNo(await overBias('Instrumentation'), [], ['Ja', 'Nein']),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Plan gegenüber P2 für Pumps & Flow',
      expect: () => compare(PF, 'final', 'p2'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Was sollte ich anschauen?',
      expect: () => advice(),
    },
    {
      category: 'languages',
      language: 'spanish',
      question:
        '¿Cuál es la diferencia entre el plan final y el pronóstico para Instrumentation el próximo trimestre?',
      expect: () => compare({ ...IN, ...P.nextQuarter }, 'final', 'stat'),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: 'ventas del mes pasado',
      expect: () => measure(P.lastMonth, 'actual'),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: '¿Estamos sobreestimando Instrumentation?',
      expect: async () => yesNo(await overBias('Instrumentation'), [], ['Sí', 'No']),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: 'plan final frente a P1 para Industrial Valves',
      expect: () => compare(IV, 'final', 'p1'),
    },
    { category: 'languages', language: 'spanish', question: '¿Qué debo revisar?', expect: () => advice() },

    // A circor user sees circor's data only, whatever the question names.
    {
      category: 'circor scope',
      as: 'circor',
      question: 'Where is the plan above or below the forecast?',
      expect: async () => ({
        ...(await compare(CIRCOR, 'final', 'stat')),
        absent: ['PRD-', 'Instrumentation'],
      }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'total plan next quarter',
      expect: () => measure({ ...CIRCOR, ...P.nextQuarter }, 'final'),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'final vs P1 for CIRCOR Aerospace',
      expect: () => compare({ ...CIRCOR, bu: 'CIRCOR Aerospace' }, 'final', 'p1'),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'plan for CIRCOR Aerospce',
      expect: () => measure({ ...CIRCOR, bu: 'CIRCOR Aerospace' }, 'final'),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'plan for Instrumentation',
      expect: async () => ({
        ...unknownWord('Instrumentation'),
        absent: ['PRD-', 'business unit Instrumentation'],
      }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'explain PRD-00001',
      expect: async () => ({ ...unknownWord('PRD-00001'), absent: ['Industrial', 'Pumps'] }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'what should I look at?',
      expect: async () => ({ ...(await advice(undefined, 'circor')), absent: ['PRD-'] }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'actuals lately for Fuel Controls',
      expect: () => measure({ ...CIRCOR, pf: 'Fuel Controls', ...P.lately }, 'actual'),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'yoy actuals ytd',
      expect: () => yoy({ ...CIRCOR, ...P.ytd }, 'actual'),
    },

    // Words it cannot place are named, never dropped.
    { category: 'unknown words', question: 'total plan for xyzzy', expect: async () => unknownWord('xyzzy') },
    {
      category: 'unknown words',
      question: 'plan vs forecast for Instrumentation bananas',
      expect: async () => ({
        contains: [...(await compare(IN, 'final', 'stat')).contains, "I don't know “bananas”"],
      }),
    },
    {
      category: 'unknown words',
      question: 'plan for PRD-99999',
      expect: async () => unknownWord('PRD-99999'),
    },
    {
      category: 'unknown words',
      question: 'frobnicate the widgets',
      expect: async () => unknownWord('frobnicate'),
    },
    {
      category: 'unknown words',
      question: 'plan for Valvez',
      expect: async () => ({ contains: ['Did you mean'] }),
    },
  ];

  it(`answers ${cases.length} planner questions with the right figures`, { timeout: 600_000 }, async () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    await askEveryQuestion(server, cases, `planner questions right`);
  });
});
