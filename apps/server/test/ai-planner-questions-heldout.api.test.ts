import { sql } from 'kysely';
import { afterAll, beforeAll, describe, it } from 'vitest';
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
  type Period,
} from './support/planner-questions';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * The held-out planner question set: written without reading the analyst, phrased unlike the
 * tuning set (other word orders, synonyms, shorthand, typos of names, relative periods, two
 * periods compared, why, what to do, yes or no, four languages, circor's scope, unknown words).
 * Every expected figure is computed here from the tables or the control tower's own endpoints.
 * The clock is the seed's current week: this week starts 11/15/2026, this month is November 2026,
 * this quarter 2026-Q4. A quarter named without a year is the nearest one to today (in November,
 * "Q1" is the coming Q1 2027 and "Q3" the Q3 2026 just past); "past 3 months" and "lately" are the
 * 13 weeks before this one.
 */

/** Periods of the planning calendar seen from TODAY (weeks by their Sunday, [from, to)). */
const P = {
  thisWeek: { from: '2026-11-15', to: '2026-11-22' },
  lastWeek: { from: '2026-11-08', to: '2026-11-15' },
  nextWeek: { from: '2026-11-22', to: '2026-11-29' },
  last4Weeks: { from: '2026-10-18', to: '2026-11-15' },
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
} as const;

describe.each(backends)('the held-out planner question set on %s', (backend) => {
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

  /** Both figures, and their gap with its percent read either way round. */
  const gapOf = (a: number, b: number): Pick<Expectation, 'contains' | 'anyOf'> => ({
    contains: [units(a), units(b)],
    anyOf: [
      [signedUnits(a - b), pct(a, b)],
      [signedUnits(b - a), pct(b, a)],
    ],
  });
  /** Two measures or versions over one scope. */
  const compare = async (f: Filter, a: MeasureKey, b: MeasureKey): Promise<Expectation> => {
    const s = await sums(f);
    return gapOf(s[a], s[b]);
  };
  /** One measure over two periods of the same scope. */
  const periods = async (f: Filter, m: MeasureKey, a: Period, b: Period): Promise<Expectation> => {
    const [sa, sb] = [await sums({ ...f, ...a }), await sums({ ...f, ...b })];
    return gapOf(sa[m], sb[m]);
  };
  /** One measure in units (and its revenue when asked), or its revenue alone. */
  const measure = async (f: Filter, m: MeasureKey, money = false): Promise<Expectation> => {
    const s = await sums(f);
    return { contains: [units(s[m]), ...(money ? [dollars(s[rev(m)])] : [])] };
  };
  const revenue = async (f: Filter, m: MeasureKey): Promise<Expectation> => ({
    contains: [dollars((await sums(f))[rev(m)])],
  });
  /** Year over year: a measure over the weeks asked (that hold records) against the actual bookings of the same weeks 52 weeks before. */
  const yoy = (asked: Filter, m: MeasureKey) => yearOverYear(server, asked, m);
  /** Is measure a above measure b over a scope: yes or no first, then both figures. */
  const above = async (f: Filter, a: MeasureKey, b: MeasureKey, words?: [string, string]) => {
    const s = await sums(f);
    return yesNo(s[a] > s[b], [units(s[a]), units(s[b])], words);
  };
  /** The week a product's measure moved most from the week before, with both weeks' figures. */
  const largestJump = async (pid: string, m: 'final_pln_units' | 'act_bkg_units' = 'final_pln_units') => {
    const { rows } = await sql<{ week: string; before: number; after: number }>`
      select week_start::text as week, prev::float8 as before, cur::float8 as after from (
        select week_start, ${sql.ref(m)} as cur, lag(${sql.ref(m)}) over (order by week_start) as prev
        from demand_records where pid = ${pid}) x
      where prev is not null and cur is not null
      order by abs(cur - prev) desc, week_start limit 1`.execute(db());
    const row = rows[0]!;
    const us = `${row.week.slice(5, 7)}/${row.week.slice(8, 10)}/${row.week.slice(0, 4)}`;
    return { contains: [us, units(row.before), units(row.after)] };
  };
  /** The two products of a scope furthest between the final plan and another version. */
  const largestGaps = async (
    f: Filter,
    other: 'ensemble_fcst_units' | 'p1_pub_pln_units' = 'ensemble_fcst_units',
  ) => {
    const { rows } = await sql<{ pid: string; gap: number }>`
      select p.pid, sum(r.final_pln_units - ${sql.ref(`r.${other}`)})::float8 as gap
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = any(${f.clients ?? ['internal', 'circor']}::text[])
        ${f.bu ? sql`and p.bu = ${f.bu}` : sql``} ${f.pf ? sql`and p.pf = ${f.pf}` : sql``}
        ${f.region ? sql`and p.region = ${f.region}` : sql``}
      group by p.pid order by abs(sum(r.final_pln_units - ${sql.ref(`r.${other}`)})) desc, p.pid limit 2`.execute(
      db(),
    );
    return { contains: rows.map((r) => r.pid), anyOf: [rows.map((r) => units(Math.abs(r.gap)))] };
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
  const biasOf = async (bu: string) => {
    const { body } = await server.request<
      Ok<{ byBusinessUnit: Array<{ bu: string; metrics: { bias: number | null } }> }>
    >('GET', '/api/control-tower/accuracy?lag=1', undefined, { as: 'admin' });
    return body.data.byBusinessUnit.find((r) => r.bu === bu)?.metrics.bias ?? 0;
  };
  /** The top of the exception queue (of a business unit when one is named). */
  const advice = async (bu?: string, as: 'admin' | 'circor' = 'admin'): Promise<Expectation> => {
    const queue = (await exceptions(as)).filter((e) => !bu || e.bu === bu);
    return { contains: queue.slice(0, 2).map((e) => e.pid) };
  };
  const unknownWord = (word: string): Expectation => ({ contains: [`I don't know “${word}”`] });
  /** Figures circor must never see, for questions that name another client's data. */
  const internalFigures = async (f: Filter, m: MeasureKey): Promise<string[]> => {
    const s = await sums({ ...f, clients: ['internal'] });
    const all = await sums({ clients: ['internal', 'circor'] });
    return [units(s[m]), units(all[m]), 'PRD-'];
  };

  const IN = { bu: 'Instrumentation' } as const;
  const PF = { bu: 'Pumps & Flow' } as const;
  const IV = { bu: 'Industrial Valves' } as const;
  const AS = { bu: 'Aftermarket Services' } as const;
  const CIRCOR = { clients: ['circor'] };

  const cases: Case[] = [
    // Plain questions, asked in other orders and words.
    {
      category: 'phrasing',
      question: 'How big is the final plan overall?',
      expect: () => measure({}, 'final'),
    },
    {
      category: 'phrasing',
      question: 'Sum up the statistical forecast across everything',
      expect: () => measure({}, 'stat'),
    },
    {
      category: 'phrasing',
      question: 'Show me what Pumps & Flow is planning',
      expect: () => measure(PF, 'final'),
    },
    {
      category: 'phrasing',
      question: "Instrumentation: what's the P1 number?",
      expect: () => measure(IN, 'p1'),
    },
    {
      category: 'phrasing',
      question: 'For Gate Valves, how much did we actually book?',
      expect: () => measure({ pf: 'Gate Valves' }, 'actual'),
    },
    {
      category: 'phrasing',
      question: 'In LATAM, what does the forecast say?',
      expect: () => measure({ region: 'LATAM' }, 'stat'),
    },
    {
      category: 'phrasing',
      question: 'Give me the preliminary plan, Aftermarket Services only',
      expect: () => measure(AS, 'prelim'),
    },
    {
      category: 'phrasing',
      question: 'I need the revenue of the final plan in North America',
      expect: () => revenue({ region: 'North America' }, 'final'),
    },
    {
      category: 'phrasing',
      question: 'Could you tell me how many units PRD-00013 has in its final plan?',
      expect: () => measure({ pid: 'PRD-00013' }, 'final'),
    },
    {
      category: 'phrasing',
      question: "Rotterdam DC — what's forecast there?",
      expect: () => measure({ site: 'Rotterdam DC' }, 'stat'),
    },
    {
      category: 'phrasing',
      question: 'Show the second published plan for Spare Parts',
      expect: () => measure({ pf: 'Spare Parts' }, 'p2'),
    },
    {
      category: 'phrasing',
      question: 'Which planner has changed the most records?',
      expect: async () => ({ contains: ['Sam Lindqvist'] }),
    },

    // Shorthand and abbreviations.
    {
      category: 'shorthand',
      question: 'stat fcst qty Pumps & Flow',
      expect: () => measure(PF, 'stat'),
    },
    { category: 'shorthand', question: 'total final rev', expect: () => revenue({}, 'final') },
    {
      category: 'shorthand',
      question: 'act $ Instrumentation',
      expect: () => revenue(IN, 'actual'),
    },
    { category: 'shorthand', question: 'P1 qty EMEA', expect: () => measure({ region: 'EMEA' }, 'p1') },
    {
      category: 'shorthand',
      question: 'fcst gap Industrial Valves',
      expect: () => compare(IV, 'final', 'stat'),
    },
    {
      category: 'shorthand',
      question: 'units planned @ Dallas DC',
      expect: () => measure({ site: 'Dallas DC' }, 'final'),
    },
    { category: 'shorthand', question: 'rev fcst APAC', expect: () => revenue({ region: 'APAC' }, 'stat') },
    {
      category: 'shorthand',
      question: 'prelim qty nxt month',
      expect: () => measure(P.nextMonth, 'prelim'),
    },
    {
      category: 'shorthand',
      question: 'act vs fcst last wk',
      expect: () => compare(P.lastWeek, 'actual', 'stat'),
    },
    {
      category: 'shorthand',
      question: 'fin pln Centrifugal Pumps',
      expect: () => measure({ pf: 'Centrifugal Pumps' }, 'final'),
    },
    { category: 'shorthand', question: 'P2 rev', expect: () => revenue({}, 'p2') },
    { category: 'shorthand', question: 'YTD act $', expect: () => revenue(P.ytd, 'actual') },

    // Names and words misspelt.
    {
      category: 'misspelling',
      question: 'final plan for Instrumentaion',
      expect: () => measure(IN, 'final'),
    },
    { category: 'misspelling', question: 'Pumps and Flow forcast', expect: () => measure(PF, 'stat') },
    {
      category: 'misspelling',
      question: 'actuals for Industial Valves',
      expect: () => measure(IV, 'actual'),
    },
    { category: 'misspelling', question: 'Aftermarket Sevices plan', expect: () => measure(AS, 'final') },
    {
      category: 'misspelling',
      question: 'Butterfly Vlaves final plan',
      expect: () => measure({ pf: 'Butterfly Valves' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'plan at Monterey Plant',
      expect: () => measure({ site: 'Monterrey Plant' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'fcst for prd-00017',
      expect: () => measure({ pid: 'PRD-00017' }, 'stat'),
    },
    {
      category: 'misspelling',
      question: 'PRD 00021 final plan',
      expect: () => measure({ pid: 'PRD-00021' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'overrides by Jordon Patel',
      expect: async () => ({
        contains: ['Jordan Patel', units((await sums({ planner: 'Jordan Patel' })).records)],
      }),
    },
    {
      category: 'misspelling',
      question: 'Centrifugal Pumps preliminery plan',
      expect: () => measure({ pf: 'Centrifugal Pumps' }, 'prelim'),
    },
    {
      category: 'misspelling',
      question: 'varience for Pressure Gauges',
      expect: () => compare({ pf: 'Pressure Gauges' }, 'final', 'stat'),
    },
    {
      category: 'misspelling',
      question: 'plan for Sao Paulo DC',
      expect: () => measure({ site: 'São Paulo DC' }, 'final'),
    },
    {
      category: 'misspelling',
      question: 'Levl Sensors acutals',
      expect: () => measure({ pf: 'Level Sensors' }, 'actual'),
    },

    // Periods relative to today.
    {
      category: 'relative period',
      question: "what's the fcst for next week",
      expect: () => measure(P.nextWeek, 'stat'),
    },
    { category: 'relative period', question: 'actuals last wk', expect: () => measure(P.lastWeek, 'actual') },
    {
      category: 'relative period',
      question: 'final plan this month for Pumps & Flow',
      expect: () => measure({ ...PF, ...P.thisMonth }, 'final'),
    },
    {
      category: 'relative period',
      question: 'prelim for next month',
      expect: () => measure(P.nextMonth, 'prelim'),
    },
    {
      category: 'relative period',
      question: 'P1 plan for next qtr',
      expect: () => measure(P.nextQuarter, 'p1'),
    },
    {
      category: 'relative period',
      question: 'actual bookings last quarter',
      expect: () => measure(P.lastQuarter, 'actual'),
    },
    {
      category: 'relative period',
      question: 'how have actuals been lately in EMEA',
      expect: () => measure({ region: 'EMEA', ...P.lately }, 'actual'),
    },
    { category: 'relative period', question: 'YTD revenue booked', expect: () => revenue(P.ytd, 'actual') },
    {
      category: 'relative period',
      question: 'actuals over the past 3 months',
      expect: () => measure(P.lately, 'actual'),
    },
    {
      category: 'relative period',
      question: 'final plan next yr',
      expect: () => measure(P.nextYear, 'final'),
    },
    {
      category: 'relative period',
      question: 'stat forecast for the last 4 weeks',
      expect: () => measure(P.last4Weeks, 'stat'),
    },
    {
      category: 'relative period',
      question: "this week's final plan for Industrial Valves",
      expect: () => measure({ ...IV, ...P.thisWeek }, 'final'),
    },
    {
      category: 'relative period',
      question: 'Instrumentation actuals this year',
      expect: () => measure({ ...IN, ...P.thisYear }, 'actual'),
    },

    // Any two measures, versions or periods.
    {
      category: 'comparison',
      question: 'fin vs stat Instrumentation',
      expect: () => compare(IN, 'final', 'stat'),
    },
    {
      category: 'comparison',
      question: 'final plan against P1 for Ball Valves',
      expect: () => compare({ pf: 'Ball Valves' }, 'final', 'p1'),
    },
    {
      category: 'comparison',
      question: 'How does P2 stack up against the final plan?',
      expect: () => compare({}, 'p2', 'final'),
    },
    {
      category: 'comparison',
      question: 'prelim vs final for Pumps & Flow',
      expect: () => compare(PF, 'prelim', 'final'),
    },
    {
      category: 'comparison',
      question: 'actuals against the P1 plan last quarter',
      expect: () => compare(P.lastQuarter, 'actual', 'p1'),
    },
    {
      category: 'comparison',
      question: 'stat vs actuals in EMEA lately',
      expect: () => compare({ region: 'EMEA', ...P.lately }, 'stat', 'actual'),
    },
    {
      category: 'comparison',
      question: 'final plan Q1 vs Q4',
      expect: () => periods({}, 'final', P.nextQuarter, P.thisQuarter),
    },
    {
      category: 'comparison',
      question: 'this quarter vs last quarter actuals for Pumps & Flow',
      expect: () => periods(PF, 'actual', P.thisQuarter, P.lastQuarter),
    },
    {
      category: 'comparison',
      question: 'stat fcst this month vs last month',
      expect: () => periods({}, 'stat', P.thisMonth, P.lastMonth),
    },
    {
      category: 'comparison',
      question: "Compare next quarter's final plan with this quarter's",
      expect: () => periods({}, 'final', P.nextQuarter, P.thisQuarter),
    },
    {
      category: 'comparison',
      question: 'actuals this year vs last year',
      expect: () => yoy(P.thisYear, 'actual'),
    },
    {
      category: 'comparison',
      question: 'Dec vs Nov final plan',
      expect: () => periods({}, 'final', P.nextMonth, P.thisMonth),
    },
    {
      category: 'comparison',
      question: 'Industrial Valves final plan Q4 vs Q3',
      expect: () => periods(IV, 'final', P.thisQuarter, P.lastQuarter),
    },

    // Why: the largest moves and what drove them.
    {
      category: 'why',
      question: 'what caused the spike in PRD-00011?',
      expect: () => largestJump('PRD-00011'),
    },
    {
      category: 'why',
      question: 'PRD-00019 final plan moved a lot, why?',
      expect: () => largestJump('PRD-00019'),
    },
    {
      category: 'why',
      question: 'explain the swing in actuals for PRD-00017',
      expect: () => largestJump('PRD-00017', 'act_bkg_units'),
    },
    {
      category: 'why',
      question: "Why does Pumps & Flow's final plan differ from the stat fcst?",
      expect: () => largestGaps(PF),
    },
    {
      category: 'why',
      question: "what's behind the gap between final and P1 in Industrial Valves",
      expect: () => largestGaps(IV, 'p1_pub_pln_units'),
    },
    {
      category: 'why',
      question: 'Why are we off the forecast in Aftermarket Services?',
      expect: () => largestGaps(AS),
    },

    // What to do: the exception queue first.
    { category: 'what to do', question: 'Where should I focus?', expect: () => advice() },
    {
      category: 'what to do',
      question: 'which items need my attention in Instrumentation',
      expect: () => advice('Instrumentation'),
    },
    {
      category: 'what to do',
      question: 'exceptions I should review for Pumps & Flow',
      expect: () => advice('Pumps & Flow'),
    },
    { category: 'what to do', question: 'what needs fixing first', expect: () => advice() },
    {
      category: 'what to do',
      question: 'next best action for Industrial Valves',
      expect: () => advice('Industrial Valves'),
    },
    { category: 'what to do', question: 'which SKUs should I adjust?', expect: () => advice() },

    // Yes or no first, then the figures.
    {
      category: 'yes/no',
      question: 'Is the final plan above stat for Pumps & Flow?',
      expect: () => above(PF, 'final', 'stat'),
    },
    {
      category: 'yes/no',
      question: 'Did actuals beat the prelim plan last month?',
      expect: () => above(P.lastMonth, 'actual', 'prelim'),
    },
    {
      category: 'yes/no',
      question: 'Are we under-forecasting Aftermarket Services?',
      expect: async () => yesNo((await biasOf('Aftermarket Services')) < 0),
    },
    {
      category: 'yes/no',
      question: 'Is Q4 final plan higher than Q3?',
      expect: async () => {
        const [q4, q3] = [await sums(P.thisQuarter), await sums(P.lastQuarter)];
        return yesNo(q4.final > q3.final, [units(q4.final), units(q3.final)]);
      },
    },
    {
      category: 'yes/no',
      question: 'Has Jordan Patel made any overrides?',
      expect: async () => yesNo((await sums({ planner: 'Jordan Patel' })).records > 0),
    },
    {
      category: 'yes/no',
      question: 'Has Riley Okafor overridden anything?',
      expect: async () => yesNo((await sums({ planner: 'Riley Okafor' })).records > 0),
    },
    {
      category: 'yes/no',
      question: 'Is P2 bigger than P1 overall?',
      expect: () => above({}, 'p2', 'p1'),
    },
    {
      category: 'yes/no',
      question: 'Were actuals above the forecast last month?',
      expect: () => above(P.lastMonth, 'actual', 'stat'),
    },

    // The other UI languages (answers in the user's language, numbers in US format).
    {
      category: 'languages',
      language: 'french',
      question: 'Quel est le plan final pour Instrumentation ce trimestre ?',
      expect: () => measure({ ...IN, ...P.thisQuarter }, 'final'),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Écart entre le plan final et la prévision statistique pour Pumps & Flow',
      expect: () => compare(PF, 'final', 'stat'),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Est-ce que le plan final dépasse la prévision pour Industrial Valves ?',
      expect: () => above(IV, 'final', 'stat', ['Oui', 'Non']),
    },
    {
      category: 'languages',
      language: 'french',
      question: 'Que dois-je regarder en priorité ?',
      expect: () => advice(),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Wie hoch waren die Ist-Werte letzten Monat?',
      expect: () => measure(P.lastMonth, 'actual'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Finaler Plan gegen P1 für Aftermarket Services',
      expect: () => compare(AS, 'final', 'p1'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Warum ist PRD-00009 gesprungen?',
      expect: () => largestJump('PRD-00009'),
    },
    {
      category: 'languages',
      language: 'german',
      question: 'Prognose nächstes Quartal',
      expect: () => measure(P.nextQuarter, 'stat'),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: '¿Cuánto es el plan final del próximo mes?',
      expect: () => measure(P.nextMonth, 'final'),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: 'plan final frente al pronóstico estadístico en EMEA',
      expect: () => compare({ region: 'EMEA' }, 'final', 'stat'),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: '¿El plan final está por encima del pronóstico en Instrumentation?',
      expect: () => above(IN, 'final', 'stat', ['Sí', 'No']),
    },
    {
      category: 'languages',
      language: 'spanish',
      question: 'ventas reales de este trimestre',
      expect: () => measure(P.thisQuarter, 'actual'),
    },

    // circor sees circor's data only.
    {
      category: 'circor scope',
      as: 'circor',
      question: 'total final plan',
      expect: async () => ({
        ...(await measure(CIRCOR, 'final')),
        absent: await internalFigures({}, 'final'),
      }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'fcst for Fuel Controls',
      expect: () => measure({ ...CIRCOR, pf: 'Fuel Controls' }, 'stat'),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'plan at Milan DC',
      expect: async () => ({
        ...(await measure({ ...CIRCOR, site: 'Milan DC' }, 'final')),
        absent: [units((await sums({ site: 'Milan DC' })).final), 'PRD-'],
      }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'How is Industrial Valves doing vs forecast?',
      expect: async () => ({ contains: [], absent: await internalFigures(IV, 'final') }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'compare our plan with the internal client',
      expect: async () => ({ contains: [], absent: await internalFigures({}, 'final') }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'what should I look at first?',
      expect: async () => ({ ...(await advice(undefined, 'circor')), absent: ['PRD-'] }),
    },
    {
      category: 'circor scope',
      as: 'circor',
      question: 'CIRCOR Aerospace fcst vs final this quarter',
      expect: () => compare({ ...CIRCOR, bu: 'CIRCOR Aerospace', ...P.thisQuarter }, 'stat', 'final'),
    },

    // Words it cannot place are named.
    {
      category: 'unknown words',
      question: 'final plan for Zorbex',
      expect: async () => unknownWord('Zorbex'),
    },
    {
      category: 'unknown words',
      question: 'plan for PRD-99999',
      expect: async () => unknownWord('PRD-99999'),
    },
    { category: 'unknown words', question: 'stat fcst in Narnia', expect: async () => unknownWord('Narnia') },
    {
      category: 'unknown words',
      question: 'overrides by Quentin',
      expect: async () => unknownWord('Quentin'),
    },
    {
      category: 'unknown words',
      question: 'show the flibbert for Pumps & Flow',
      expect: async () => unknownWord('flibbert'),
    },
  ];

  it(
    `answers ${cases.length} held-out planner questions with the right figures`,
    { timeout: 900_000 },
    async () => {
      await askEveryQuestion(server, cases, `held-out planner questions right on ${backend}`);
    },
  );
});
