import {
  optimisationEndpoints as endpoints,
  type BodyInput,
  type NetworkData,
  type OptimisationRun,
  type OptimisationRunDetail,
  type RunComparison,
  type Scenario,
} from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

export const optichainKeys = {
  network: ['optichain', 'network'] as const,
  runs: ['optichain', 'runs'] as const,
  run: (id: number) => ['optichain', 'run', id] as const,
  scenarios: ['optichain', 'scenarios'] as const,
  comparison: (base: number, scenario: number) => ['optichain', 'compare', base, scenario] as const,
};

export const fetchNetwork = (): Promise<NetworkData> => callEndpoint(endpoints.network, { parse: true });

export const fetchRuns = (): Promise<OptimisationRun[]> =>
  callEndpoint(endpoints.listRuns, { query: { limit: 20 }, parse: true });

export const fetchRun = (id: number): Promise<OptimisationRunDetail> =>
  callEndpoint(endpoints.getRun, { params: { id: String(id) }, parse: true });

export const startRun = (body: BodyInput<typeof endpoints.startRun>): Promise<OptimisationRun> =>
  callEndpoint(endpoints.startRun, { body, parse: true });

export const fetchScenarios = (): Promise<Scenario[]> =>
  callEndpoint(endpoints.listScenarios, { parse: true });

export const createScenario = (body: BodyInput<typeof endpoints.createScenario>): Promise<Scenario> =>
  callEndpoint(endpoints.createScenario, { body, parse: true });

export const deleteScenario = (id: number): Promise<{ id: number }> =>
  callEndpoint(endpoints.deleteScenario, { params: { id: String(id) }, parse: true });

export const fetchComparison = (base: number, scenario: number): Promise<RunComparison> =>
  callEndpoint(endpoints.compare, { query: { base, scenario }, parse: true });

export const updateDc = (id: number, body: BodyInput<typeof endpoints.updateDc>): Promise<NetworkData> =>
  callEndpoint(endpoints.updateDc, { params: { id: String(id) }, body, parse: true });

export const updatePlant = (
  id: number,
  body: BodyInput<typeof endpoints.updatePlant>,
): Promise<NetworkData> =>
  callEndpoint(endpoints.updatePlant, { params: { id: String(id) }, body, parse: true });

export const updateLane = (id: number, body: BodyInput<typeof endpoints.updateLane>): Promise<NetworkData> =>
  callEndpoint(endpoints.updateLane, { params: { id: String(id) }, body, parse: true });

export const updateSettings = (body: BodyInput<typeof endpoints.updateSettings>): Promise<NetworkData> =>
  callEndpoint(endpoints.updateSettings, { body, parse: true });

export const createPlant = (body: BodyInput<typeof endpoints.createPlant>): Promise<NetworkData> =>
  callEndpoint(endpoints.createPlant, { body, parse: true });

export const createDc = (body: BodyInput<typeof endpoints.createDc>): Promise<NetworkData> =>
  callEndpoint(endpoints.createDc, { body, parse: true });

export const createLane = (body: BodyInput<typeof endpoints.createLane>): Promise<NetworkData> =>
  callEndpoint(endpoints.createLane, { body, parse: true });

/** withLanes: the planner confirmed deleting the lanes that use the node with it. */
export const deleteNode = (kind: 'plant' | 'dc', id: number, withLanes: boolean): Promise<NetworkData> =>
  callEndpoint(kind === 'plant' ? endpoints.deletePlant : endpoints.deleteDc, {
    params: { id: String(id) },
    query: { withLanes: String(withLanes) },
    parse: true,
  });

export const deleteLane = (id: number): Promise<NetworkData> =>
  callEndpoint(endpoints.deleteLane, { params: { id: String(id) }, parse: true });
