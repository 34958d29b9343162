import { randomUUID } from 'node:crypto';
import {
  GREETING_SCENARIO_PROMPT,
  SUGGESTED_PROMPTS,
  parseAnswer,
  toIsoDate,
  weekStartSunday,
  type AccuracyReport,
  type AnswerLocale,
  wrapQuestion,
  type ChatReply,
  type HelpResponse,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

const cents = (value: number): number => Math.round(Number((value * 100).toPrecision(12))) / 100;
const units = (value: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(value);
const dollars = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
    value,
  );

const CHAT_LIMIT = 40;

describe.each(backends)('AI assistant on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    process.env.AI_CHAT_REQUESTS_PER_MINUTE = String(CHAT_LIMIT);
    server = await startTestServer(backend, { products: 30, weeks: 26 });
  });
  afterAll(async () => {
    delete process.env.AI_CHAT_REQUESTS_PER_MINUTE;
    await server?.close();
  });

  const ask = async (
    question: string,
    as: 'admin' | 'circor' = 'admin',
    filters?: { bu?: string[] },
    locale?: AnswerLocale,
  ) => {
    const context = {
      page: 'demand-planning',
      viewLevel: 'category' as const,
      drillDownType: 'none' as const,
      ...(filters ? { filters } : {}),
      ...(locale ? { locale } : {}),
    };
    const body = { message: wrapQuestion(question, context), sessionId: randomUUID(), context };
    return server.request<Ok<ChatReply> | Failure>('POST', '/api/ai/chat', body, { as });
  };
  const answer = async (
    question: string,
    as: 'admin' | 'circor' = 'admin',
    filters?: { bu?: string[] },
    locale?: AnswerLocale,
  ) => {
    const { status, body } = await ask(question, as, filters, locale);
    expect(status, JSON.stringify(body)).toBe(200);
    const reply = (body as Ok<ChatReply>).data;
    // Every table of an answer has as many cells in each row as in its header.
    for (const block of parseAnswer(reply.response))
      if (block.kind === 'table') for (const row of block.rows) expect(row).toHaveLength(block.header.length);
    return reply;
  };

  /** Sums over the records of the given clients, read straight from demand_records. */
  const sums = async (clients: string[], bu?: string) =>
    (
      await sql<{ final: number; stat: number; records: number }>`
        select coalesce(sum(r.final_pln_units), 0)::float8 as final, coalesce(sum(r.ensemble_fcst_units), 0)::float8 as stat,
          count(*)::int as records
        from demand_records r join products p on p.pid = r.pid
        where p.client_id = any(${clients}::text[]) ${bu ? sql`and p.bu = ${bu}` : sql``}`.execute(
        server.database.db,
      )
    ).rows[0]!;

  it('answers the four suggested prompts offline, saying which data it used', async () => {
    for (const prompt of SUGGESTED_PROMPTS) {
      const reply = await answer(prompt);
      expect(reply.source).toBe('offline');
      expect(reply.response).toMatch(/Data used:/);
      expect(reply.response).not.toMatch(/could not read/);
    }
    // The variance prompt's totals, checked against SQL.
    const variance = await answer(SUGGESTED_PROMPTS[1]);
    const all = await sums(['internal', 'circor']);
    expect(variance.response).toContain(`${units(all.final)} against ${units(all.stat)} units`);
    expect(variance.response).toContain(`Data used: ${units(all.records)} demand records`);
  });

  it("proposes the greeting's scenario with before/after figures equal to SQL, without saving", async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(
      server.database.db,
    );
    const reply = await answer(GREETING_SCENARIO_PROMPT);
    const scenario = reply.scenario!;
    // The greeting's scenario is on the next quarter, never one already past.
    const today = new Date();
    const index = today.getUTCFullYear() * 4 + Math.floor(today.getUTCMonth() / 3) + 1;
    const [year, q] = [Math.floor(index / 4), (index % 4) + 1];
    const from = `${year}-${String((q - 1) * 3 + 1).padStart(2, '0')}-01`;
    const to = q === 4 ? `${year + 1}-01-01` : `${year}-${String(q * 3 + 1).padStart(2, '0')}-01`;
    expect(scenario).toMatchObject({
      name: 'Demand Upside (End User)',
      percent: 15,
      quarter: `${year}-Q${q}`,
    });
    const rows = (
      await sql<{ units: number; cost: number; price: number }>`
        select r.final_pln_units::float8 as units, p.unit_cost::float8 as cost, p.unit_price::float8 as price
        from demand_records r join products p on p.pid = r.pid
        where r.week_start >= ${from}::date and r.week_start < ${to}::date and r.final_pln_units is not null`.execute(
        server.database.db,
      )
    ).rows;
    expect(scenario.records).toBe(rows.length);
    // Half up on the exact decimal product (10 × 1.15 = 11.5 → 12).
    const after = rows.map((r) => ({ ...r, units: Math.round(Number((r.units * 1.15).toPrecision(12))) }));
    const total = (list: typeof rows) => ({
      units: list.reduce((s, r) => s + r.units, 0),
      cost: cents(list.reduce((s, r) => s + cents(r.units * r.cost), 0)),
      revenue: cents(list.reduce((s, r) => s + cents(r.units * r.price), 0)),
    });
    const b = total(rows);
    const a = total(after);
    expect(scenario.before).toEqual({ ...b, margin: cents(b.revenue - b.cost) });
    expect(scenario.after).toEqual({ ...a, margin: cents(a.revenue - a.cost) });
    expect(reply.response).toContain(`| Revenue | ${dollars(b.revenue)} | ${dollars(a.revenue)} |`);
    const afterCount = await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(
      server.database.db,
    );
    expect(afterCount.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it("keeps a circor user's assistant to circor data", async () => {
    const circor = await sums(['circor']);
    const reply = await answer('Where is the plan above or below the forecast?', 'circor');
    expect(reply.response).toContain(`${units(circor.final)} against ${units(circor.stat)} units`);
    expect(reply.response).not.toMatch(/PRD-|Industrial Valves|Pumps & Flow/);
    const internalPid = (
      await sql<{ pid: string }>`select pid from products where client_id = 'internal' limit 1`.execute(
        server.database.db,
      )
    ).rows[0]!.pid;
    const explain = await answer(`Explain ${internalPid}`, 'circor');
    // Another client's product is as unknown as a made-up one.
    expect(explain.response).toContain(`I don't know “${internalPid}”`);
    const overrides = await answer('Largest overrides', 'circor');
    expect(overrides.response).not.toContain('PRD-');
  });

  it('reads a business unit and a quarter from the question, and the page filters', async () => {
    const bu = (
      await sql<{
        bu: string;
      }>`select bu from products where client_id = 'internal' order by bu limit 1`.execute(server.database.db)
    ).rows[0]!.bu;
    const expected = await sums(['internal'], bu);
    const byQuestion = await answer(`Where is the plan above or below the forecast for ${bu}?`);
    expect(byQuestion.response).toContain(`business unit ${bu}`);
    expect(byQuestion.response).toContain(`${units(expected.final)} against`);
    const byFilter = await answer('Show the variance', 'admin', { bu: [bu] });
    expect(byFilter.response).toContain(`${units(expected.final)} against`);
    const quarter = await answer('Total plan revenue in 2026-Q4');
    expect(quarter.response).toContain('in 2026-Q4');
  });

  it('compares one measure across two periods, or two measures in each of two periods', async () => {
    const quarter = async (from: string, to: string) =>
      (
        await sql<{ final: number; p1: number }>`
          select coalesce(sum(final_pln_units), 0)::float8 as final, coalesce(sum(p1_pub_pln_units), 0)::float8 as p1
          from demand_records where week_start >= ${from}::date and week_start < ${to}::date`.execute(
          server.database.db,
        )
      ).rows[0]!;
    const [q4, q1] = [await quarter('2026-10-01', '2027-01-01'), await quarter('2027-01-01', '2027-04-01')];
    const across = (await answer('final plan 2027-Q1 vs 2026-Q4')).response;
    expect(across).toContain(`**Final plan, 2027-Q1 vs 2026-Q4**`);
    expect(across).toContain(`${units(q1.final)} against ${units(q4.final)} units`);
    expect(across).toContain('2027-Q1 vs 2026-Q4._');
    const both = (await answer('final vs P1 2026-Q4 vs 2027-Q1')).response;
    expect(both).toContain(`in 2026-Q4: ${units(q4.final)} against ${units(q4.p1)} units`);
    expect(both).toContain(`in 2027-Q1: ${units(q1.final)} against ${units(q1.p1)} units`);
    const yes = (await answer('Is 2026-Q4 final plan higher than 2027-Q1?')).response;
    expect(yes.startsWith(q4.final > q1.final ? '**Yes.**' : '**No.**')).toBe(true);
  });

  it('changes its answer when the data changes', async () => {
    const record = (
      await sql<{ pid: string; week: string; final: number }>`
        select r.pid, to_char(r.week_start, 'YYYYMMDD') as week, r.final_pln_units::float8 as final
        from demand_records r where r.final_pln_units > 10 order by r.pid, r.week_start limit 1`.execute(
        server.database.db,
      )
    ).rows[0]!;
    const before = await answer('Total plan?');
    const all = await sums(['internal', 'circor']);
    expect(before.response).toContain(`| Final plan | ${units(all.final)} |`);
    const saved = await server.request('PUT', `/api/demand-planning/real-data/${record.pid}/${record.week}`, {
      SOP_Pln_Ovrd_Units: record.final + 1000,
    });
    expect(saved.status).toBe(200);
    const after = await answer('Total plan?');
    expect(after.response).toContain(`| Final plan | ${units(all.final + 1000)} |`);
  });

  it("answers accuracy by lag with the Forecast Accuracy screen's figures, checked against the snapshots", async () => {
    const lag = 2;
    // Independently: every snapshot's final plan for the week `lag` weeks later against its actual,
    // for weeks before the current one, where the chain and the naive forecast all exist.
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    const expected = async () => {
      const pairs = await sql<{ abs: number; err: number; actual: number }>`
        select coalesce(sum(abs(s.final_units[${lag + 1}::int] - r.act_bkg_units)), 0)::float8 as abs,
          coalesce(sum(s.final_units[${lag + 1}::int] - r.act_bkg_units), 0)::float8 as err,
          coalesce(sum(abs(r.act_bkg_units)), 0)::float8 as actual
        from forecast_snapshots s join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + ${lag * 7}::int
        where s.snapshot_week + ${lag * 7}::int < ${currentWeek}::date and r.act_bkg_units is not null
          and s.naive_units is not null and s.stat_units[${lag + 1}::int] is not null
          and s.prelim_units[${lag + 1}::int] is not null and s.final_units[${lag + 1}::int] is not null`.execute(
        server.database.db,
      );
      const { abs, err, actual } = pairs.rows[0]!;
      return { wape: (abs / actual) * 100, bias: (err / actual) * 100, actual };
    };
    const { wape, bias, actual } = await expected();
    expect(actual).toBeGreaterThan(0);
    const two = (value: number) => (Math.round(value * 100) / 100).toFixed(2);
    const reply = await answer(`How accurate is our forecast at lag ${lag}?`);
    expect(reply.response).toContain(`**Forecast accuracy at lag ${lag}** for all data you can see`);
    expect(reply.response).toContain(`accuracy **${two(100 - wape)}%** (WAPE ${two(wape)}%)`);
    expect(reply.response).toContain(`bias **${two(bias)}%**`);
    expect(reply.response).toMatch(
      /Data used: [\d,]+ forecast snapshots .* at lag 2: the figures of the Forecast Accuracy screen/,
    );
    // The same figures as the screen, also for one business unit.
    const screen = await server.request<Ok<AccuracyReport>>('GET', `/api/control-tower/accuracy?lag=${lag}`);
    expect(screen.body.data.overall.wape).toBe(Math.round(wape * 100) / 100);
    const unit = screen.body.data.byBusinessUnit[0]!;
    const byUnit = await answer(`Accuracy of ${unit.bu} at lag ${lag}`);
    expect(byUnit.response).toContain(`for business unit ${unit.bu}`);
    expect(byUnit.response).toContain(
      `accuracy **${unit.metrics.accuracy!.toFixed(2)}%** (WAPE ${unit.metrics.wape!.toFixed(2)}%)`,
    );
    // Lag 1 unless asked, as the screen opens.
    expect((await answer('How accurate is our forecast?')).response).toContain(
      '**Forecast accuracy at lag 1**',
    );
    // The answer follows the data: one past week's actual bookings change, the accuracy with them.
    await sql`
      update demand_records set act_bkg_units = act_bkg_units + 500
      where (pid, week_start) = (
        select s.pid, s.snapshot_week + ${lag * 7}::int from forecast_snapshots s
        join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + ${lag * 7}::int
        where r.act_bkg_units is not null and s.snapshot_week + ${lag * 7}::int < ${currentWeek}::date
          and s.naive_units is not null and s.stat_units[${lag + 1}::int] is not null
          and s.prelim_units[${lag + 1}::int] is not null and s.final_units[${lag + 1}::int] is not null
        order by s.pid, s.snapshot_week limit 1)`.execute(server.database.db);
    const changed = await expected();
    expect(changed.wape).not.toBeCloseTo(wape, 2);
    expect((await answer(`How accurate is our forecast at lag ${lag}?`)).response).toContain(
      `accuracy **${two(100 - changed.wape)}%** (WAPE ${two(changed.wape)}%)`,
    );
  });

  it("writes in the user's language, number format, date format and currency", async () => {
    const all = await sums(['internal', 'circor']);
    const inr = {
      language: 'spanish',
      numberFormat: 'indian',
      dateFormat: 'dd/mm/yyyy',
      currency: 'inr',
    } as const;
    const spanish = await answer('Where is the plan above or below the forecast?', 'admin', undefined, inr);
    const lakhs = (value: number) =>
      new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }).format(value);
    expect(spanish.response).toContain(`${lakhs(all.final)} frente a ${lakhs(all.stat)} unidades`);
    expect(spanish.response).toContain(`Datos usados: ${lakhs(all.records)} registros de demanda`);
    expect(spanish.response).toMatch(/ingresos ₹[\d,]+/);
    expect(spanish.response).not.toContain('$');
    // Revenue in rupees at the rate valid today (migration 0017's table), whole rupees.
    const revenue = (
      await sql<{ revenue: number; rate: number }>`
        select (select coalesce(sum(final_pln_rev_dlrs), 0) from demand_records)::float8 as revenue,
          (select rate from exchange_rates where currency = 'inr' and valid_from <= current_date
            order by valid_from desc limit 1)::float8 as rate`.execute(server.database.db)
    ).rows[0]!;
    expect(spanish.response).toContain(`₹${lakhs(Math.round(revenue.revenue * revenue.rate))}`);
    const record = (
      await sql<{ pid: string; week: string }>`
        select pid, week_start::text as week from demand_records order by pid, week_start limit 1`.execute(
        server.database.db,
      )
    ).rows[0]!;
    const [year, month, day] = record.week.split('-');
    const german = await answer(`Explain ${record.pid} week ${record.week}`, 'admin', undefined, {
      language: 'german',
      numberFormat: 'us',
      dateFormat: 'dd/mm/yyyy',
      currency: 'usd',
    });
    expect(german.response).toContain(`**${record.pid}**, Woche vom ${day}/${month}/${year}`);
    expect(german.response).toContain('Basis: Die statistische Prognose');
    const french = await server.request<Ok<HelpResponse>>('POST', '/api/ai-help', {
      context: 'planning-workflow',
      currentData: { pendingChanges: 2 },
      locale: { language: 'french', numberFormat: 'us', dateFormat: 'dd/mm/yyyy', currency: 'eur' },
    });
    expect(french.status).toBe(200);
    expect(french.body.data.title).toBe('Processus de planification');
    expect(french.body.data.summary).toMatch(
      /^Plan de toutes vos données : [\d,]+ unités, €[\d,]+ de CA final ; 2 modifications non enregistrées\.$/,
    );
    const unknown = await answer('Cuéntame un chiste', 'admin', undefined, inr);
    expect(unknown.response).toContain('Puedo responder:');
  });

  it('explains one record step by step', async () => {
    const r = (
      await sql<{ pid: string; week: string; final: number; ens: number }>`
        select r.pid, r.week_start::text as week, r.final_pln_units::float8 as final, r.ensemble_fcst_units::float8 as ens
        from demand_records r where r.final_pln_units is not null and r.ensemble_fcst_units is not null
        order by r.pid, r.week_start limit 1`.execute(server.database.db)
    ).rows[0]!;
    const reply = await answer(`Explain ${r.pid} week ${r.week}`);
    expect(reply.response).toContain(
      `1. Baseline: the statistical forecast (Ensemble_Fcst_Units) is **${units(r.ens)}** units.`,
    );
    expect(reply.response).toContain(`**${units(r.final)}** units.`);
  });

  it('streams the same answer as newline-delimited events', async () => {
    const context = { page: 'demand-planning' };
    const body = { message: wrapQuestion('Total plan?', context), sessionId: randomUUID(), context };
    const token = (await server.tokensFor('admin')).id_token;
    const response = await fetch(`${server.baseUrl}/api/ai/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const events = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string; sessionId?: string });
    expect(events.at(-1)).toMatchObject({ type: 'done', source: 'offline', sessionId: body.sessionId });
    const whole = await answer('Total plan?');
    expect(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
    ).toBe(whole.response);
    const refused = await server.request<Failure>('POST', '/api/ai/chat/stream', { ...body, sessionId: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^sessionId/);
  });

  it('says plainly what it can answer when it cannot read a question', async () => {
    const reply = await answer('Tell me a joke about penguins');
    expect(reply.response).toContain('I can answer:');
    expect(reply.scenario).toBeNull();
  });

  it('saves a confirmed scenario as audited overrides, only for writers', async () => {
    const bu = (
      await sql<{
        bu: string;
      }>`select bu from products where client_id = 'circor' order by bu limit 1`.execute(server.database.db)
    ).rows[0]!.bu;
    const body = { name: 'Upside', percent: 10, quarter: '2026-Q4', bu };
    const refused = await server.request<Failure>('POST', '/api/ai/scenario', body, { as: 'nogroup' });
    expect(refused.status).toBe(403);
    const preview = await answer(`What if demand is up 10% in 2026-Q4 for ${bu}?`, 'circor');
    expect(preview.scenario).toMatchObject({ percent: 10, quarter: '2026-Q4', bu });
    const saved = await server.request<
      Ok<{ updatedRecords: number; scenario: { after: { units: number } } }>
    >('POST', '/api/ai/scenario', body, { as: 'circor' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.updatedRecords).toBeGreaterThan(0);
    const now = await sql<{ final: number; audited: number }>`
      select coalesce(sum(r.final_pln_units), 0)::float8 as final,
        (select count(*) from audit_log a where a.source = 'batch' and a.field = 'SOP_Pln_Ovrd_Units'
          and a.new_value is not null and a.pid in (select pid from products where bu = ${bu}))::int as audited
      from demand_records r join products p on p.pid = r.pid
      where p.bu = ${bu} and r.week_start >= '2026-10-01' and r.week_start < '2027-01-01'`.execute(
      server.database.db,
    );
    expect(now.rows[0]!.final).toBe(preview.scenario!.after.units);
    expect(now.rows[0]!.audited).toBeGreaterThanOrEqual(saved.body.data.updatedRecords);
    // A circor user cannot change another client's business unit.
    const other = await server.request<Failure>(
      'POST',
      '/api/ai/scenario',
      { ...body, bu: 'Industrial Valves' },
      { as: 'circor' },
    );
    expect(other.status).toBe(400);
  });

  it('answers help insights for three contexts with the caller figures', async () => {
    const all = await sums(['internal', 'circor']);
    for (const [context, title] of [
      ['planning-workflow', 'Planning Workflow'],
      ['variance-analysis', 'Variance Analysis'],
      ['performance-metrics', 'Performance Metrics'],
    ] as const) {
      const { status, body } = await server.request<Ok<HelpResponse>>('POST', '/api/ai-help', {
        context,
        userRole: 'Demand Planner',
        currentData: { pendingChanges: 3 },
        viewLevel: 'category',
        drillDownType: 'monthly',
      });
      expect(status).toBe(200);
      expect(body.data.title).toBe(title);
      expect(body.data.summary.length).toBeGreaterThan(20);
      expect(body.data.recommendations.length).toBeGreaterThan(0);
      if (context === 'planning-workflow') {
        expect(body.data.summary).toContain(`${units(all.final)} units`);
        expect(body.data.summary).toContain('3 unsaved edits');
      }
    }
  });

  it('refuses bad input with a 400 naming the field, and callers without a group', async () => {
    const context = { page: 'demand-planning' };
    const cases: Array<[unknown, string]> = [
      [{ message: '   ', sessionId: randomUUID(), context }, 'message'],
      [{ message: 'x'.repeat(2001), sessionId: randomUUID(), context }, 'message'],
      [{ message: 'Totals', sessionId: 'nope', context }, 'sessionId'],
      [
        { message: 'Totals', sessionId: randomUUID(), context: { page: 'x', viewLevel: 'galaxy' } },
        'context.viewLevel',
      ],
      [{ message: 'To\u0000tals', sessionId: randomUUID(), context }, 'message'],
    ];
    for (const [body, field] of cases) {
      const { status, body: answer } = await server.request<Failure>('POST', '/api/ai/chat', body);
      expect(status).toBe(400);
      expect(answer.message.startsWith(field), answer.message).toBe(true);
    }
    const help = await server.request<Failure>('POST', '/api/ai-help', { context: 'astrology' });
    expect(help.status).toBe(400);
    expect(help.body.message).toMatch(/^context/);
    expect((await server.request('POST', '/api/ai/chat', { message: 'x' }, { as: 'anonymous' })).status).toBe(
      401,
    );
    expect(
      (await server.request('POST', '/api/ai-help', { context: 'unknown' }, { as: 'nogroup' })).status,
    ).toBe(403);
  });

  it('limits questions per user with a clear 429, other users unaffected', async () => {
    let status = 200;
    let body: Ok<ChatReply> | Failure | undefined;
    for (let i = 0; i <= CHAT_LIMIT && status === 200; i += 1)
      ({ status, body } = await ask('Total plan?', 'circor'));
    expect(status).toBe(429);
    expect((body as Failure).message).toBe(
      `Too many AI questions: at most ${CHAT_LIMIT} a minute per user. Wait a minute and try again.`,
    );
    // The 429 says when the window ends.
    const context = { page: 'demand-planning' };
    const refused = await fetch(`${server.baseUrl}/api/ai/chat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(await server.tokensFor('circor')).id_token}`,
      },
      body: JSON.stringify({ message: 'Total plan?', sessionId: randomUUID(), context }),
    });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await ask('Total plan?', 'admin')).status).toBe(200);
  });
});
