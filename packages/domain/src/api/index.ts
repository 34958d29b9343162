import { apiDocsEndpoints } from './api-docs.contract';
import { authEndpoints } from './auth.contract';
import { dashboardEndpoints } from './dashboard.contract';
import { demandRecordEndpoints } from './demand-records.contract';
import type { EndpointContract } from './endpoint';
import { exportEndpoints } from './exports.contract';
import { forecastRunEndpoints } from './forecast-runs.contract';
import { healthEndpoints } from './health.contract';
import { planningGridEndpoints } from './planning-grid.contract';
import { planCycleEndpoints } from './plan-cycles.contract';
import { spreadingEndpoints } from './spreading.contract';

export * from './endpoint';
export * from './envelope';
export * from './demand-record.response';
export * from './api-docs.contract';
export * from './auth.contract';
export * from './dashboard.contract';
export * from './demand-records.contract';
export * from './exports.contract';
export * from './forecast-runs.contract';
export * from './health.contract';
export * from './planning-grid.contract';
export * from './plan-cycles.contract';
export * from './spreading.contract';

const ENDPOINT_GROUPS: Record<string, EndpointContract>[] = [
  healthEndpoints,
  authEndpoints,
  demandRecordEndpoints,
  planningGridEndpoints,
  exportEndpoints,
  dashboardEndpoints,
  forecastRunEndpoints,
  planCycleEndpoints,
  spreadingEndpoints,
  apiDocsEndpoints,
];

/** Every endpoint of the API, in the order the OpenAPI document and the docs page list them. */
export const API_ENDPOINTS: readonly EndpointContract[] = ENDPOINT_GROUPS.flatMap((group) =>
  Object.values(group),
);
