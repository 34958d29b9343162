import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchFilterOptions } from '../api/demand-planning.api';

export const FILTER_OPTIONS_KEY = ['demand-planning', 'filter-options'] as const;

export const filterOptionsQuery = () =>
  queryOptions({ queryKey: FILTER_OPTIONS_KEY, queryFn: ({ signal }) => fetchFilterOptions(signal) });

export function useFilterOptions() {
  return useQuery(filterOptionsQuery());
}
