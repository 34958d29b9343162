import type { NetworkInstance } from './network';

/**
 * Hand-solvable: one family, one month, region R wants 100 units.
 * Plant A: 60 units at $1, plant B: 100 units at $2. DC1: fixed $50, handling $0.5;
 * DC2: fixed $30, handling $1; both 100 units of throughput.
 * Lanes A→DC1 $1, A→DC2 $3, B→DC1 $2, B→DC2 $1, DC1→R $1, DC2→R $2. Unmet: $10 a unit.
 *
 * Per-unit path costs (production + inbound + handling + outbound):
 *   A→DC1→R 1+1+0.5+1 = 3.5   B→DC1→R 2+2+0.5+1 = 5.5
 *   A→DC2→R 1+3+1+2  = 7      B→DC2→R 2+1+1+2  = 6
 * DC1 only: 60·3.5 + 40·5.5 + 50 = 480. DC2 only: 100·6 + 30 = 630 (B is cheaper there).
 * Both: 60·3.5 + 40·5.5 + 80 = 510. None: 100·10 = 1,000. Optimum: DC1 only, 480.
 */
export const HAND_INSTANCE: NetworkInstance = {
  periods: [{ key: '2026-01', months: 1 }],
  plants: [
    { id: 1, name: 'Plant A', region: 'R', families: [{ family: 'F', capacityPerMonth: 60, unitCost: 1 }] },
    { id: 2, name: 'Plant B', region: 'R', families: [{ family: 'F', capacityPerMonth: 100, unitCost: 2 }] },
  ],
  dcs: [
    {
      id: 1,
      name: 'DC1',
      region: 'R',
      throughputPerMonth: 100,
      fixedCostPerMonth: 50,
      handlingCostPerUnit: 0.5,
      decision: 'auto',
    },
    {
      id: 2,
      name: 'DC2',
      region: 'R',
      throughputPerMonth: 100,
      fixedCostPerMonth: 30,
      handlingCostPerUnit: 1,
      decision: 'auto',
    },
  ],
  inboundLanes: [
    { id: 1, plantId: 1, dcId: 1, costPerUnit: 1, leadTimeDays: 3 },
    { id: 2, plantId: 1, dcId: 2, costPerUnit: 3, leadTimeDays: 5 },
    { id: 3, plantId: 2, dcId: 1, costPerUnit: 2, leadTimeDays: 4 },
    { id: 4, plantId: 2, dcId: 2, costPerUnit: 1, leadTimeDays: 2 },
  ],
  outboundLanes: [
    { id: 5, dcId: 1, region: 'R', costPerUnit: 1, leadTimeDays: 1 },
    { id: 6, dcId: 2, region: 'R', costPerUnit: 2, leadTimeDays: 1 },
  ],
  demand: [{ region: 'R', family: 'F', period: '2026-01', units: 100 }],
  unmetPenaltyPerUnit: 10,
};
