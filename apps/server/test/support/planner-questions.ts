import { randomUUID } from 'node:crypto';
import type { AnswerLocale, ChatReply } from '@ps/domain';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Failure, Ok } from './api-shapes';
import type { TestServer } from './test-server';

/**
 * What the planner question sets share: the seed's day, how the analyst writes figures, the
 * expected sums straight from the records, and the runner that asks every question and scores
 * the answers by category.
 */

/** The seed's current week: this week starts 11/15/2026, this month is November, this quarter Q4. */
export const TODAY = '2026-11-15';

export const fmt = (value: number, decimals = 0) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
export const units = (value: number) => fmt(Math.round(value));
export const sign = (value: number) => (value > 0 ? '+' : value < 0 ? '−' : '');
export const signedUnits = (value: number) => `${sign(Math.round(value))}${units(Math.abs(value))}`;
export const dollars = (value: number) => `$${fmt(Math.abs(value))}`;
export const pct = (a: number, b: number) => {
  if (b === 0) return 'n/a';
  const change = Math.round(((a - b) / Math.abs(b)) * 1000) / 10;
  return `${sign(change)}${fmt(Math.abs(change), 1)}%`;
};

export type Filter = {
  clients?: string[];
  bu?: string;
  pf?: string;
  region?: string;
  site?: string;
  planner?: string;
  pid?: string;
  from?: string;
  to?: string;
};
export type Sums = {
  records: number;
  actual: number;
  actualRev: number;
  stat: number;
  statRev: number;
  prelim: number;
  prelimRev: number;
  final: number;
  finalRev: number;
  p1: number;
  p1Rev: number;
  p2: number;
  p2Rev: number;
};
export type MeasureKey = 'actual' | 'stat' | 'prelim' | 'final' | 'p1' | 'p2';
export type Period = { from: string; to: string };

export type Category =
  | 'phrasing'
  | 'shorthand'
  | 'misspelling'
  | 'relative period'
  | 'comparison'
  | 'why'
  | 'what to do'
  | 'yes/no'
  | 'languages'
  | 'circor scope'
  | 'unknown words';

/**
 * What an answer must hold: every `contains`, at least one group of `anyOf` whole (a gap may be
 * read either way round, as long as its sign and percent agree), none of `absent`.
 */
export type Expectation = { contains: string[]; anyOf?: string[][]; absent?: string[]; startsWith?: RegExp };
export type Case = {
  category: Category;
  question: string;
  as?: 'admin' | 'circor';
  language?: AnswerLocale['language'];
  expect: () => Promise<Expectation>;
};

/** Sums of every measure over the records of a filter, straight from demand_records. */
export async function recordSums(server: TestServer, f: Filter = {}): Promise<Sums> {
  const clients = f.clients ?? ['internal', 'circor'];
  const { rows } = await sql<Sums>`
    select count(*)::int as records,
      coalesce(sum(r.act_bkg_units), 0)::float8 as actual, coalesce(sum(r.act_rev_dlrs), 0)::float8 as "actualRev",
      coalesce(sum(r.ensemble_fcst_units), 0)::float8 as stat,
      coalesce(sum(round((r.ensemble_fcst_units * p.unit_price)::numeric, 2)), 0)::float8 as "statRev",
      coalesce(sum(r.prelim_pln_units), 0)::float8 as prelim, coalesce(sum(r.prelim_pln_rev_dlrs), 0)::float8 as "prelimRev",
      coalesce(sum(r.final_pln_units), 0)::float8 as final, coalesce(sum(r.final_pln_rev_dlrs), 0)::float8 as "finalRev",
      coalesce(sum(r.p1_pub_pln_units), 0)::float8 as p1, coalesce(sum(r.p1_pub_pln_rev_dlrs), 0)::float8 as "p1Rev",
      coalesce(sum(r.p2_pub_pln_units), 0)::float8 as p2, coalesce(sum(r.p2_pub_pln_rev_dlrs), 0)::float8 as "p2Rev"
    from demand_records r join products p on p.pid = r.pid
    where p.client_id = any(${clients}::text[])
      ${f.bu ? sql`and p.bu = ${f.bu}` : sql``} ${f.pf ? sql`and p.pf = ${f.pf}` : sql``}
      ${f.region ? sql`and p.region = ${f.region}` : sql``} ${f.site ? sql`and p.site = ${f.site}` : sql``}
      ${f.planner ? sql`and r.last_updated_by = ${f.planner}` : sql``} ${f.pid ? sql`and p.pid = ${f.pid}` : sql``}
      ${f.from ? sql`and r.week_start >= ${f.from}::date` : sql``} ${f.to ? sql`and r.week_start < ${f.to}::date` : sql``}`.execute(
    server.database.db,
  );
  return rows[0]!;
}

/**
 * This year against the same weeks a year earlier (sales history 364 days before), as the answer
 * must show it: both figures and the change. Actuals stop at the current week.
 */
export async function yearOverYear(server: TestServer, asked: Filter, m: MeasureKey): Promise<Expectation> {
  const f = m === 'actual' && asked.to! > TODAY ? { ...asked, to: TODAY } : asked;
  const db = server.database.db;
  const s = await recordSums(server, f);
  const { rows } = await sql<{ first: string; last: string }>`
    select min(r.week_start)::text as first, max(r.week_start)::text as last from demand_records r
    join products p on p.pid = r.pid where p.client_id = any(${f.clients ?? ['internal', 'circor']}::text[])
      and r.week_start >= ${f.from!}::date and r.week_start < ${f.to!}::date`.execute(db);
  const { first, last } = rows[0]!;
  const before = await sql<{ units: number }>`
    select coalesce(sum(h.units), 0)::float8 as units from sales_history h join products p on p.pid = h.pid
    where p.client_id = any(${f.clients ?? ['internal', 'circor']}::text[])
      ${f.bu ? sql`and p.bu = ${f.bu}` : sql``} ${f.pf ? sql`and p.pf = ${f.pf}` : sql``}
      and h.week_start >= ${first}::date - 364 and h.week_start <= ${last}::date - 364`.execute(db);
  const lastYear = before.rows[0]!.units;
  return { contains: [units(s[m]), units(lastYear), pct(s[m], lastYear)] };
}

/** A yes-or-no answer: the word first (markdown bold allowed), then the figures. */
export const yesNo = (
  yes: boolean,
  extra: string[] = [],
  words: [string, string] = ['Yes', 'No'],
): Expectation => ({
  startsWith: new RegExp(`^\\**${yes ? words[0] : words[1]}(?!\\p{L})`, 'u'),
  contains: extra,
});

/**
 * Asks every question in the chat (each in its own session, in the case's language), checks each
 * answer against its expectation, prints the score by category, and fails with every wrong answer.
 * AI_QUESTIONS_DRY prints the expectations without asking; AI_QUESTIONS_PRINT prints each answer,
 * AI_QUESTIONS_VERBOSE the wrong ones.
 */
export async function askEveryQuestion(
  server: TestServer,
  cases: readonly Case[],
  label: string,
): Promise<void> {
  const results: Array<{ c: Case; ok: boolean; why: string }> = [];
  for (const c of cases) {
    const want = await c.expect();
    // A case that checks nothing would pass on any answer.
    expect(
      want.contains.length +
        (want.anyOf?.length ?? 0) +
        (want.absent?.length ?? 0) +
        (want.startsWith ? 1 : 0),
      c.question,
    ).toBeGreaterThan(0);
    if (process.env.AI_QUESTIONS_DRY) {
      console.log(`» ${c.question}: ${JSON.stringify(want)}`);
      continue;
    }
    const context = {
      page: 'demand-planning',
      ...(c.language
        ? {
            locale: {
              language: c.language,
              numberFormat: 'us',
              dateFormat: 'mm/dd/yyyy',
              currency: 'usd',
            } as const,
          }
        : {}),
    };
    const { status, body } = await server.request<Ok<ChatReply> | Failure>(
      'POST',
      '/api/ai/chat',
      { message: c.question, sessionId: randomUUID(), context },
      { as: c.as ?? 'admin' },
    );
    if (status !== 200) {
      results.push({ c, ok: false, why: `status ${status}` });
      continue;
    }
    const text = (body as Ok<ChatReply>).data.response;
    if (process.env.AI_QUESTIONS_PRINT) console.log(`» ${c.question}\n${text}\n`);
    const missing = want.contains.filter((s) => !text.includes(s));
    const anyOf = !want.anyOf || want.anyOf.some((group) => group.every((s) => text.includes(s)));
    const present = (want.absent ?? []).filter((s) => text.includes(s));
    const starts = !want.startsWith || want.startsWith.test(text.trimStart());
    const ok = missing.length === 0 && anyOf && present.length === 0 && starts;
    results.push({
      c,
      ok,
      why: ok
        ? ''
        : `missing ${JSON.stringify(missing)} anyOf ${anyOf ? 'ok' : JSON.stringify(want.anyOf)} present ${JSON.stringify(present)} starts ${starts}\n${text}`,
    });
  }
  if (process.env.AI_QUESTIONS_DRY) return;
  const tally = new Map<Category, { right: number; all: number }>();
  for (const { c, ok } of results) {
    const t = tally.get(c.category) ?? { right: 0, all: 0 };
    t.all += 1;
    if (ok) t.right += 1;
    tally.set(c.category, t);
  }
  const right = results.filter((r) => r.ok).length;
  console.log(
    [
      `${label}: ${right}/${results.length}`,
      ...[...tally].map(([category, t]) => `  ${category}: ${t.right}/${t.all}`),
    ].join('\n'),
  );
  if (process.env.AI_QUESTIONS_VERBOSE)
    for (const r of results.filter((x) => !x.ok)) console.log(`✗ ${r.c.question}\n${r.why}\n`);
  expect(results.filter((r) => !r.ok).map((r) => `${r.c.question}: ${r.why}`)).toEqual([]);
}
