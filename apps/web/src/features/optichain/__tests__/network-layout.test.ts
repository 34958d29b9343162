import type { NetworkData, SolveResult } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { layoutNetwork } from '../utils/network-layout';

const network: NetworkData = {
  plants: [{ id: 1, name: 'Toronto Plant', region: 'North America', families: [] }],
  dcs: [
    {
      id: 1,
      name: 'Dallas DC',
      region: 'North America',
      throughputPerMonth: 10,
      fixedCostPerMonth: 1,
      handlingCostPerUnit: 1,
      decision: 'auto',
    },
    {
      id: 2,
      name: 'Milan DC',
      region: 'EMEA',
      throughputPerMonth: 10,
      fixedCostPerMonth: 1,
      handlingCostPerUnit: 1,
      decision: 'auto',
    },
  ],
  inboundLanes: [],
  outboundLanes: [],
  unmetPenaltyPerUnit: null,
  regions: ['EMEA', 'North America'],
  families: ['F'],
};

const flow = (leg: 'inbound' | 'outbound', from: string, to: string, units: number) => ({
  leg,
  from,
  to,
  family: 'F',
  period: '2026-01',
  units,
  cost: 0,
  leadTimeDays: 1,
});

describe('layoutNetwork', () => {
  it('places regions as on a map and sums flows per lane, wider for more units', () => {
    const result = {
      dcs: [
        { dcId: 1, isOpen: true, utilisationPercent: 80 },
        { dcId: 2, isOpen: false, utilisationPercent: 0 },
      ],
      plants: [{ plantId: 1, utilisationPercent: 50 }],
      flows: [
        flow('inbound', 'Toronto Plant', 'Dallas DC', 30),
        flow('inbound', 'Toronto Plant', 'Dallas DC', 10),
        flow('outbound', 'Dallas DC', 'North America', 20),
        flow('outbound', 'Dallas DC', 'EMEA', 0),
      ],
    } as unknown as SolveResult;
    const layout = layoutNetwork(network, result);
    expect(layout.zones.map((z) => [z.region, z.x < 500, z.y < 280])).toEqual([
      ['North America', true, true],
      ['EMEA', false, true],
    ]);
    const dallas = layout.nodes.find((n) => n.label === 'Dallas DC')!;
    expect([dallas.isOpen, dallas.utilisationPercent]).toEqual([true, 80]);
    expect(layout.nodes.find((n) => n.label === 'Milan DC')!.isOpen).toBe(false);
    // Plant → DC carries 40 units (the busiest lane: width 10), DC → region 20 (1.5 + 8.5 / 2).
    expect(layout.lanes.map((l) => [l.from.label, l.to.label, l.units, l.width])).toEqual([
      ['Toronto Plant', 'Dallas DC', 40, 10],
      ['Dallas DC', 'North America', 20, 5.75],
    ]);
  });

  it('draws the network without lanes or outcomes before any solve', () => {
    const layout = layoutNetwork(network, null);
    expect(layout.lanes).toEqual([]);
    expect(layout.nodes.every((n) => n.isOpen === null && n.utilisationPercent === null)).toBe(true);
    expect(layout.nodes.filter((n) => n.kind === 'region').map((n) => n.label)).toEqual([
      'North America',
      'EMEA',
    ]);
  });
});
