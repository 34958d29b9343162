import { gridCellOf, type AggregatedRow, type GridPage } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { withCellNotes } from '../utils/grid-notes';

const row = (id: string, fields: Partial<AggregatedRow>): AggregatedRow =>
  ({
    id,
    viewLevel: 'category',
    drillDown: 'monthly',
    recordCount: 1,
    Comments: null,
    commentCount: null,
    Reason_Codes: [],
    ...fields,
  }) as AggregatedRow;

const pageOf = (rows: AggregatedRow[]): GridPage => ({
  rows,
  total: rows.length,
  offset: 0,
  limit: 100,
  viewLevel: 'category',
  drillDown: 'monthly',
});

describe("a page's roll-up notes", () => {
  it('names each cell by the group its level shows and its period', () => {
    expect(gridCellOf(row('pf:A|2030-01', { PF: 'A', BU: 'U', periodKey: '2030-01' }))).toEqual({
      group: 'A',
      periodKey: '2030-01',
    });
    expect(gridCellOf(row('bu:U', { viewLevel: 'business_unit', drillDown: 'none', BU: 'U' }))).toEqual({
      group: 'U',
      periodKey: '',
    });
    expect(
      gridCellOf(row('pid:P|2030-01-06', { viewLevel: 'sku', PID: 'P', PF: 'A', periodKey: '2030-01-06' })),
    ).toEqual({
      group: 'P',
      periodKey: '2030-01-06',
    });
  });

  it('puts each cell its notes by id, and leaves a row that carries its own and one not answered', () => {
    const saved = row('pf:B|2030-01', {
      PF: 'B',
      Comments: 'Saved',
      commentCount: 1,
      Reason_Codes: ['Other'],
    });
    const page = pageOf([row('pf:A|2030-01', { PF: 'A' }), saved, row('pf:C|2030-01', { PF: 'C' })]);
    const shown = withCellNotes(page, [
      { id: 'pf:A|2030-01', Comments: 'Promo; Late', commentCount: 3, Reason_Codes: ['Market Trend'] },
      { id: 'pf:B|2030-01', Comments: 'Older', commentCount: 2, Reason_Codes: [] },
    ]);
    expect(shown.rows).toEqual([
      row('pf:A|2030-01', {
        PF: 'A',
        Comments: 'Promo; Late',
        commentCount: 3,
        Reason_Codes: ['Market Trend'],
      }),
      saved,
      row('pf:C|2030-01', { PF: 'C' }),
    ]);
    expect(page.rows[0]).toEqual(row('pf:A|2030-01', { PF: 'A' }));
  });
});
