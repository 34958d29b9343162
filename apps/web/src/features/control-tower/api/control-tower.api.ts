import { controlTowerEndpoints as endpoints } from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

/** Control tower calls; the server limits every answer to the caller's clients. */
export const controlTowerKeys = {
  all: ['control-tower'] as const,
  filters: () => [...controlTowerKeys.all, 'filters'] as const,
  worksheet: (query: WorksheetQuery) => [...controlTowerKeys.all, 'worksheet', query] as const,
  products: (company: string, search: string) =>
    [...controlTowerKeys.all, 'products', company, search] as const,
  accuracy: (lag: number) => [...controlTowerKeys.all, 'accuracy', lag] as const,
  exceptions: (lag: number) => [...controlTowerKeys.all, 'exceptions', lag] as const,
  home: () => [...controlTowerKeys.all, 'home'] as const,
};

export type WorksheetQuery = { company: string; businessUnit: string; productFamily?: string; pid?: string };

export const fetchWorksheetFilters = (signal?: AbortSignal) => callEndpoint(endpoints.filters, { signal });
export const fetchWorksheet = (query: WorksheetQuery, signal?: AbortSignal) =>
  callEndpoint(endpoints.worksheet, { query, signal });
export const fetchProducts = (company: string, search: string, signal?: AbortSignal) =>
  callEndpoint(endpoints.products, { query: { company, search }, signal });
export const fetchAccuracy = (lag: number, signal?: AbortSignal) =>
  callEndpoint(endpoints.accuracy, { query: { lag }, signal });
export const fetchExceptions = (lag: number, signal?: AbortSignal) =>
  callEndpoint(endpoints.exceptions, { query: { lag }, signal });
export const fetchControlTowerHome = (signal?: AbortSignal) => callEndpoint(endpoints.home, { signal });
