import {
  inventoryEndpoints,
  type InventoryAuditEntry,
  type InventoryChange,
  type InventoryFilters,
  type InventoryMetrics,
  type InventoryPage,
  type InventoryRow,
  type SdMatch,
} from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

export const inventoryKeys = {
  all: ['inventory'] as const,
  page: (filters: InventoryFilters, page: number) => ['inventory', 'page', filters, page] as const,
  options: ['inventory', 'filter-options'] as const,
  metrics: ['inventory', 'metrics'] as const,
  sdMatch: ['inventory', 'sd-match'] as const,
  history: (sku: string, site: string) => ['inventory', 'history', sku, site] as const,
};

export function fetchInventoryPage(filters: InventoryFilters, page: number): Promise<InventoryPage> {
  return callEndpoint(inventoryEndpoints.page, { query: { ...filters, page } });
}

export function fetchInventoryFilterOptions() {
  return callEndpoint(inventoryEndpoints.filterOptions);
}

export type RowChange = InventoryChange & { sku: string; site: string };

export function confirmRow({ sku, site, ...change }: RowChange): Promise<InventoryRow> {
  return callEndpoint(inventoryEndpoints.update, { params: { pid: sku, site }, body: change });
}

export function confirmRows(changes: RowChange[]): Promise<{ updated: number; items: InventoryRow[] }> {
  return callEndpoint(inventoryEndpoints.batch, { body: { changes } });
}

export function fetchInventoryMetrics(): Promise<InventoryMetrics> {
  return callEndpoint(inventoryEndpoints.metrics);
}

export function fetchSdMatch(): Promise<SdMatch> {
  return callEndpoint(inventoryEndpoints.sdMatch);
}

/** A row's override audit trail, newest first. */
export function fetchOverrideHistory(sku: string, site: string): Promise<InventoryAuditEntry[]> {
  return callEndpoint(inventoryEndpoints.audit, { params: { pid: sku, site } });
}
