import type { FlowRow } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { filterFlows, flowTotals, NO_FILTERS } from '../utils/flow-filters';

const rows: FlowRow[] = [
  {
    leg: 'inbound',
    from: 'Toronto Plant',
    to: 'Dallas DC',
    family: 'Ball Valves',
    period: '2026-11',
    units: 10,
    cost: 25.5,
    leadTimeDays: 3,
  },
  {
    leg: 'outbound',
    from: 'Dallas DC',
    to: 'LATAM',
    family: 'Ball Valves',
    period: '2026-12',
    units: 4,
    cost: 12.25,
    leadTimeDays: 5,
  },
  {
    leg: 'outbound',
    from: 'Milan DC',
    to: 'EMEA',
    family: 'Gear Pumps',
    period: '2026-11',
    units: 6,
    cost: 7,
    leadTimeDays: 2,
  },
];

describe('filterFlows', () => {
  it('combines leg, family, period and a case-insensitive location search', () => {
    expect(filterFlows(rows, NO_FILTERS)).toHaveLength(3);
    expect(
      filterFlows(rows, { ...NO_FILTERS, leg: 'outbound', family: 'Ball Valves' }).map((r) => r.to),
    ).toEqual(['LATAM']);
    expect(
      filterFlows(rows, { ...NO_FILTERS, period: '2026-11', search: 'dallas' }).map((r) => r.from),
    ).toEqual(['Toronto Plant']);
  });

  it('totals the units and cost of the rows shown', () => {
    expect(flowTotals(rows)).toEqual({ units: 20, cost: 44.75 });
  });
});
