import { gridCellOf, rollUp, type AggregatedRow, type GridPage } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Ok } from './support/api-shapes';
import { gridNotes, gridPageWithNotes } from './support/grid-page';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';

/** A roll-up row's notes: what the test checks by hand. */
type Notes = Pick<AggregatedRow, 'Comments' | 'commentCount' | 'Reason_Codes'>;

const UNIT = 'Notes Unit';

/**
 * Hand-built products of one business unit, `UNIT`, in both clients: internal's families A and B,
 * circor's family C. Their records' notes, in grid order (PID, then week); a blank comment is no
 * comment, and 'Promo' twice is one distinct comment but two comments held.
 */
const PRODUCTS = [
  { pid: 'NOTE-A1', client: 'internal', pf: 'Notes Fam A' },
  { pid: 'NOTE-A2', client: 'internal', pf: 'Notes Fam A' },
  { pid: 'NOTE-B1', client: 'internal', pf: 'Notes Fam B' },
  { pid: 'NOTE-C1', client: 'circor', pf: 'Notes Fam C' },
];
const RECORDS: Array<[pid: string, week: string, comment: string | null, code: string | null]> = [
  ['NOTE-A1', '2030-01-06', 'Promo', 'Market Trend'],
  ['NOTE-A1', '2030-01-13', 'Promo', 'Seasonal Adjustment'],
  ['NOTE-A1', '2030-02-03', '   ', null],
  ['NOTE-A2', '2030-01-06', 'Late ship', 'Supply Chain'],
  ['NOTE-A2', '2030-01-13', 'Alpha', 'Market Trend'],
  ['NOTE-A2', '2030-02-03', null, null],
  ['NOTE-A2', '2030-04-07', 'Zeta', 'Other'],
  ['NOTE-B1', '2030-01-06', 'Beta', 'Strategic Initiative'],
  ['NOTE-B1', '2030-01-13', 'Gamma', null],
  ['NOTE-B1', '2030-02-03', 'Delta', null],
  ['NOTE-C1', '2030-01-06', 'Circor secret', 'Other'],
];

/**
 * A roll-up page's comment counts and distinct comments and reason codes, read from the records
 * keyed by the page's groups and periods, equal what the page's records hold: checked by hand on
 * records built for it, at every level and drill-down, and against rolling up the same records;
 * a circor user sees only circor's notes in a business unit both clients use.
 */
describe.each(backends)('grid notes on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 6, weeks: 8 });
    const db = server.database.db;
    for (const p of PRODUCTS) {
      await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
        values (${p.pid}, ${p.client}, ${UNIT}, ${p.pf}, 'A', 'EMEA', 'Berlin', 'Purchased', 10, 15)`.execute(
        db,
      );
    }
    for (const [pid, week, comment, code] of RECORDS) {
      await sql`insert into demand_records (pid, week_start, final_pln_units, comments, reason_code)
        values (${pid}, ${week}::date, 10, ${comment}, ${code})`.execute(db);
    }
  });
  afterAll(async () => server?.close());

  /** Every row of the business unit's roll-up at a level and drill-down, over every week. */
  const viewOf = (viewLevel: string, drillDown: string) =>
    `viewLevel=${viewLevel}&drillDown=${drillDown}&period=all&limit=500&bu=${encodeURIComponent(UNIT)}`;
  /** As the grid shows them: the page's rows, then the notes of their cells (one keyed read). */
  const rows = async (viewLevel: string, drillDown: string, options?: RequestOptions) =>
    (await gridPageWithNotes(server, viewOf(viewLevel, drillDown), options)).rows as AggregatedRow[];

  /** The notes of each row, by the row's id. */
  const notesOf = (page: AggregatedRow[]): Record<string, Notes> =>
    Object.fromEntries(
      page.map((r) => [
        r.id,
        { Comments: r.Comments, commentCount: r.commentCount, Reason_Codes: r.Reason_Codes },
      ]),
    );

  const none: Notes = { Comments: null, commentCount: 0, Reason_Codes: [] };

  it('counts and lists the notes of each family and period', async () => {
    const familyA: Notes = {
      Comments: 'Promo; Late ship; Alpha (+1 more)',
      commentCount: 5,
      Reason_Codes: ['Market Trend', 'Seasonal Adjustment', 'Supply Chain'],
    };
    const familyB: Notes = {
      Comments: 'Beta; Gamma; Delta',
      commentCount: 3,
      Reason_Codes: ['Strategic Initiative'],
    };
    const familyC: Notes = { Comments: 'Circor secret', commentCount: 1, Reason_Codes: ['Other'] };
    expect(notesOf(await rows('category', 'none'))).toEqual({
      'pf:Notes Fam A': familyA,
      'pf:Notes Fam B': familyB,
      'pf:Notes Fam C': familyC,
    });
    expect(notesOf(await rows('category', 'yearly'))).toMatchObject({
      'pf:Notes Fam A|2030': familyA,
      'pf:Notes Fam B|2030': familyB,
    });
    const january: Notes = {
      Comments: 'Promo; Late ship; Alpha',
      commentCount: 4,
      Reason_Codes: ['Market Trend', 'Seasonal Adjustment', 'Supply Chain'],
    };
    const april: Notes = { Comments: 'Zeta', commentCount: 1, Reason_Codes: ['Other'] };
    expect(notesOf(await rows('category', 'quarterly'))).toMatchObject({
      'pf:Notes Fam A|2030-Q1': january,
      'pf:Notes Fam A|2030-Q2': april,
      'pf:Notes Fam B|2030-Q1': familyB,
    });
    expect(notesOf(await rows('category', 'monthly'))).toMatchObject({
      'pf:Notes Fam A|2030-01': january,
      // A blank comment is none: the month's records hold no note.
      'pf:Notes Fam A|2030-02': none,
      'pf:Notes Fam A|2030-04': april,
      'pf:Notes Fam B|2030-01': {
        Comments: 'Beta; Gamma',
        commentCount: 2,
        Reason_Codes: ['Strategic Initiative'],
      },
      'pf:Notes Fam B|2030-02': { Comments: 'Delta', commentCount: 1, Reason_Codes: [] },
    });
    expect(notesOf(await rows('category', 'weekly'))).toMatchObject({
      'pf:Notes Fam A|2030-01-06': {
        Comments: 'Promo; Late ship',
        commentCount: 2,
        Reason_Codes: ['Market Trend', 'Supply Chain'],
      },
      'pf:Notes Fam A|2030-01-13': {
        Comments: 'Promo; Alpha',
        commentCount: 2,
        Reason_Codes: ['Seasonal Adjustment', 'Market Trend'],
      },
      'pf:Notes Fam A|2030-02-03': none,
      'pf:Notes Fam A|2030-04-07': april,
    });
  });

  it('counts and lists the notes of the business unit and of each product', async () => {
    expect(notesOf(await rows('business_unit', 'none'))).toEqual({
      'bu:Notes Unit': {
        Comments: 'Promo; Late ship; Alpha (+5 more)',
        commentCount: 9,
        Reason_Codes: ['Market Trend', 'Seasonal Adjustment', 'Supply Chain'],
      },
    });
    expect(notesOf(await rows('business_unit', 'weekly'))).toMatchObject({
      'bu:Notes Unit|2030-01-06': {
        Comments: 'Promo; Late ship; Beta (+1 more)',
        commentCount: 4,
        Reason_Codes: ['Market Trend', 'Supply Chain', 'Strategic Initiative'],
      },
      'bu:Notes Unit|2030-02-03': { Comments: 'Delta', commentCount: 1, Reason_Codes: [] },
    });
    expect(notesOf(await rows('sku', 'none'))).toEqual({
      'pid:NOTE-A1': {
        Comments: 'Promo',
        commentCount: 2,
        Reason_Codes: ['Market Trend', 'Seasonal Adjustment'],
      },
      'pid:NOTE-A2': {
        Comments: 'Late ship; Alpha; Zeta',
        commentCount: 3,
        Reason_Codes: ['Supply Chain', 'Market Trend', 'Other'],
      },
      'pid:NOTE-B1': {
        Comments: 'Beta; Gamma; Delta',
        commentCount: 3,
        Reason_Codes: ['Strategic Initiative'],
      },
      'pid:NOTE-C1': { Comments: 'Circor secret', commentCount: 1, Reason_Codes: ['Other'] },
    });
  });

  it("shows a circor user only circor's notes in a business unit both clients use", async () => {
    const circor = { as: 'circor' } as const;
    const only: Notes = { Comments: 'Circor secret', commentCount: 1, Reason_Codes: ['Other'] };
    expect(notesOf(await rows('business_unit', 'none', circor))).toEqual({ 'bu:Notes Unit': only });
    expect(notesOf(await rows('business_unit', 'weekly', circor))).toEqual({
      'bu:Notes Unit|2030-01-06': only,
    });
    expect(notesOf(await rows('category', 'monthly', circor))).toEqual({ 'pf:Notes Fam C|2030-01': only });
  });

  it("leaves the notes out of a page and reads them for the page's cells alone", async () => {
    const page = (
      await server.request<Ok<GridPage>>('GET', `/api/demand-planning/grid?${viewOf('category', 'monthly')}`)
    ).body.data.rows as AggregatedRow[];
    expect(page.length).toBeGreaterThan(2);
    for (const row of page)
      expect([row.commentCount, row.Comments, row.Reason_Codes]).toEqual([null, null, []]);
    // Two cells of the page, asked in another order: each answered once, by its row's id.
    const asked = [page[2]!, page[0]!];
    const notes = await gridNotes(server, viewOf('category', 'monthly'), asked.map(gridCellOf));
    expect(notes.map((n) => n.id).sort()).toEqual(asked.map((r) => r.id).sort());
    expect(notes.find((n) => n.id === 'pf:Notes Fam A|2030-01')).toEqual({
      id: 'pf:Notes Fam A|2030-01',
      Comments: 'Promo; Late ship; Alpha',
      commentCount: 4,
      Reason_Codes: ['Market Trend', 'Seasonal Adjustment', 'Supply Chain'],
    });
    // A cell of a group or period without records holds no notes.
    expect(
      await gridNotes(server, viewOf('category', 'monthly'), [
        { group: 'No such family', periodKey: '2030-01' },
      ]),
    ).toEqual([{ id: 'pf:No such family|2030-01', Comments: null, commentCount: 0, Reason_Codes: [] }]);
    // The original table has no cells: its records carry their own notes.
    expect(
      await gridNotes(server, 'viewLevel=none&drillDown=none', [{ group: 'NOTE-A1', periodKey: '' }]),
    ).toEqual([]);
  });

  it('refuses a cell whose period key is not one of the view', async () => {
    for (const [drillDown, periodKey] of [
      ['monthly', '2030-13'],
      ['weekly', '2030-02-30'],
      ['quarterly', '2030-01'],
      ['none', '2030'],
    ] as const) {
      const { status } = await server.request(
        'POST',
        `/api/demand-planning/grid/notes?${viewOf('category', drillDown)}`,
        { cells: [{ group: 'Notes Fam A', periodKey }] },
      );
      expect(status, `${drillDown} ${periodKey}`).toBe(400);
    }
  });

  it('equals rolling up the records of the page at every level and drill-down', async () => {
    const records = (await allRecords(server)).filter((r) => r.BU === UNIT);
    expect(records).toHaveLength(RECORDS.length);
    for (const viewLevel of ['sku', 'category', 'business_unit'] as const)
      for (const drillDown of ['none', 'weekly', 'monthly', 'quarterly', 'yearly'] as const) {
        const expected = rollUp(records, viewLevel, drillDown);
        expect(notesOf(await rows(viewLevel, drillDown)), `${viewLevel} × ${drillDown}`).toEqual(
          notesOf(expected),
        );
      }
  });
});
