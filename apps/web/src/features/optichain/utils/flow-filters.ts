import type { FlowRow } from '@ps/domain';

/** The flows table's filters; 'all' (or empty text) lets every row through. */
export type FlowFilters = { leg: 'all' | FlowRow['leg']; family: string; period: string; search: string };

export const NO_FILTERS: FlowFilters = { leg: 'all', family: 'all', period: 'all', search: '' };

/** Rows matching every filter; the search matches origin or destination, ignoring case. */
export function filterFlows(flows: readonly FlowRow[], filters: FlowFilters): FlowRow[] {
  const search = filters.search.trim().toLowerCase();
  return flows.filter(
    (flow) =>
      (filters.leg === 'all' || flow.leg === filters.leg) &&
      (filters.family === 'all' || flow.family === filters.family) &&
      (filters.period === 'all' || flow.period === filters.period) &&
      (search === '' || flow.from.toLowerCase().includes(search) || flow.to.toLowerCase().includes(search)),
  );
}

/** Units and cost of the rows shown, for the table's total line. */
export function flowTotals(flows: readonly FlowRow[]): { units: number; cost: number } {
  return flows.reduce(
    (sum, flow) => ({ units: sum.units + flow.units, cost: Math.round((sum.cost + flow.cost) * 100) / 100 }),
    { units: 0, cost: 0 },
  );
}
