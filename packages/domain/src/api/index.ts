import { aiAssistantEndpoints } from './ai-assistant.contract';
import { apiDocsEndpoints } from './api-docs.contract';
import { authEndpoints } from './auth.contract';
import { clockEndpoints } from './clock.contract';
import { dashboardEndpoints } from './dashboard.contract';
import { demandRecordEndpoints } from './demand-records.contract';
import type { EndpointContract } from './endpoint';
import { exportEndpoints } from './exports.contract';
import { forecastRunEndpoints } from './forecast-runs.contract';
import { healthEndpoints } from './health.contract';
import { importEndpoints } from './imports.contract';
import { planningGridEndpoints } from './planning-grid.contract';
import { planCycleEndpoints } from './plan-cycles.contract';
import { exchangeRateEndpoints } from './exchange-rates.contract';
import { notificationEndpoints } from './notifications.contract';
import { planningPolicyEndpoints } from './planning-policy.contract';
import { userSettingsEndpoints } from './user-settings.contract';
import { optimisationEndpoints } from './optimisation.contract';
import { inventoryEndpoints } from './inventory.contract';
import { controlTowerEndpoints } from './control-tower.contract';
import { spreadingEndpoints } from './spreading.contract';
import { liveUpdateEndpoints } from './live-updates.contract';
import { dataLoadEndpoints } from './data-loads.contract';
import { cycleEndpoints } from './cycle.contract';
import { savedViewEndpoints } from './saved-views.contract';

export * from './endpoint';
export * from './envelope';
export * from './demand-record.response';
export * from './ai-assistant.contract';
export * from './api-docs.contract';
export * from './auth.contract';
export * from './clock.contract';
export * from './dashboard.contract';
export * from './demand-records.contract';
export * from './exports.contract';
export * from './forecast-runs.contract';
export * from './health.contract';
export * from './imports.contract';
export * from './planning-grid.contract';
export * from './plan-cycles.contract';
export * from './exchange-rates.contract';
export * from './notifications.contract';
export * from './planning-policy.contract';
export * from './user-settings.contract';
export * from './optimisation.contract';
export * from './inventory.contract';
export * from './control-tower.contract';
export * from './spreading.contract';
export * from './live-updates.contract';
export * from './data-loads.contract';
export * from './cycle.contract';
export * from './saved-views.contract';

const ENDPOINT_GROUPS: Record<string, EndpointContract>[] = [
  healthEndpoints,
  authEndpoints,
  clockEndpoints,
  demandRecordEndpoints,
  planningGridEndpoints,
  exportEndpoints,
  importEndpoints,
  dashboardEndpoints,
  forecastRunEndpoints,
  planCycleEndpoints,
  userSettingsEndpoints,
  savedViewEndpoints,
  planningPolicyEndpoints,
  exchangeRateEndpoints,
  notificationEndpoints,
  optimisationEndpoints,
  inventoryEndpoints,
  aiAssistantEndpoints,
  controlTowerEndpoints,
  spreadingEndpoints,
  liveUpdateEndpoints,
  dataLoadEndpoints,
  cycleEndpoints,
  apiDocsEndpoints,
];

/** Every endpoint of the API, in the order the OpenAPI document and the docs page list them. */
export const API_ENDPOINTS: readonly EndpointContract[] = ENDPOINT_GROUPS.flatMap((group) =>
  Object.values(group),
);
