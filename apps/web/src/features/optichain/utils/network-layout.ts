import type { NetworkData, SolveResult } from '@ps/domain';

export type DiagramZone = { region: string; x: number; y: number; width: number; height: number };
export type DiagramNode = {
  key: string;
  kind: 'plant' | 'dc' | 'region';
  label: string;
  region: string;
  x: number;
  y: number;
  /** DCs only: open in the solution shown (null when no solution is shown). */
  isOpen: boolean | null;
  /** Plants and DCs: utilisation over the horizon, percent (null when no solution is shown). */
  utilisationPercent: number | null;
};
export type DiagramLane = {
  key: string;
  leg: 'inbound' | 'outbound';
  from: DiagramNode;
  to: DiagramNode;
  units: number;
  /** Stroke width in viewBox units, by flow relative to the busiest lane. */
  width: number;
};
export type NetworkLayout = {
  width: number;
  height: number;
  zones: DiagramZone[];
  nodes: DiagramNode[];
  lanes: DiagramLane[];
};

export const DIAGRAM_WIDTH = 1000;
export const DIAGRAM_HEIGHT = 560;
/** Regions placed roughly as on a map: the Americas left, EMEA and APAC right (names as slugs). */
const MAP_ORDER = ['north-america', 'emea', 'latam', 'apac'];
const slug = (region: string): string => region.trim().toLowerCase().replace(/\s+/g, '-');
const mapRank = (region: string): number => {
  const rank = MAP_ORDER.indexOf(slug(region));
  return rank === -1 ? MAP_ORDER.length : rank;
};
const MIN_LANE_WIDTH = 1.5;
const MAX_LANE_WIDTH = 10;

/**
 * Places the network for the diagram: one zone per region (2 columns), and in each zone plants on
 * the left, DCs in the middle and the customer region on the right; lanes are the solution's flows
 * summed over families and periods, wider for more units.
 */
export function layoutNetwork(network: NetworkData, result: SolveResult | null): NetworkLayout {
  const regions = [
    ...new Set([
      ...network.regions,
      ...network.plants.map((p) => p.region),
      ...network.dcs.map((dc) => dc.region),
    ]),
  ].sort((a, b) => mapRank(a) - mapRank(b) || a.localeCompare(b));
  const rows = Math.max(1, Math.ceil(regions.length / 2));
  const zoneHeight = (DIAGRAM_HEIGHT - 20 * (rows + 1)) / rows;
  const zoneWidth = (DIAGRAM_WIDTH - 60) / 2;
  const zones: DiagramZone[] = regions.map((region, i) => ({
    region,
    x: 20 + (i % 2) * (zoneWidth + 20),
    y: 20 + Math.floor(i / 2) * (zoneHeight + 20),
    width: zoneWidth,
    height: zoneHeight,
  }));
  const column = (zone: DiagramZone, share: number, index: number, count: number) => ({
    x: zone.x + zone.width * share,
    y: zone.y + 36 + ((zone.height - 48) * (index + 0.5)) / Math.max(1, count),
  });
  const dcOutcome = new Map(result?.dcs.map((dc) => [dc.dcId, dc]) ?? []);
  const plantOutcome = new Map(result?.plants.map((p) => [p.plantId, p]) ?? []);
  const nodes: DiagramNode[] = [];
  for (const zone of zones) {
    const plants = network.plants.filter((p) => p.region === zone.region);
    plants.forEach((plant, i) =>
      nodes.push({
        key: `plant:${plant.name}`,
        kind: 'plant',
        label: plant.name,
        region: zone.region,
        ...column(zone, 0.16, i, plants.length),
        isOpen: null,
        utilisationPercent: plantOutcome.get(plant.id)?.utilisationPercent ?? null,
      }),
    );
    const dcs = network.dcs.filter((dc) => dc.region === zone.region);
    dcs.forEach((dc, i) => {
      const outcome = dcOutcome.get(dc.id);
      nodes.push({
        key: `dc:${dc.name}`,
        kind: 'dc',
        label: dc.name,
        region: zone.region,
        ...column(zone, 0.5, i, dcs.length),
        isOpen: outcome ? outcome.isOpen : null,
        utilisationPercent: outcome ? outcome.utilisationPercent : null,
      });
    });
    if (network.regions.includes(zone.region)) {
      nodes.push({
        key: `region:${zone.region}`,
        kind: 'region',
        label: zone.region,
        region: zone.region,
        ...column(zone, 0.84, 0, 1),
        isOpen: null,
        utilisationPercent: null,
      });
    }
  }
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const totals = new Map<
    string,
    { leg: 'inbound' | 'outbound'; from: DiagramNode; to: DiagramNode; units: number }
  >();
  for (const flow of result?.flows ?? []) {
    const from = byKey.get(flow.leg === 'inbound' ? `plant:${flow.from}` : `dc:${flow.from}`);
    const to = byKey.get(flow.leg === 'inbound' ? `dc:${flow.to}` : `region:${flow.to}`);
    if (!from || !to) continue;
    const key = `${from.key}>${to.key}`;
    const lane = totals.get(key) ?? { leg: flow.leg, from, to, units: 0 };
    lane.units += flow.units;
    totals.set(key, lane);
  }
  const busiest = Math.max(0, ...[...totals.values()].map((l) => l.units));
  const lanes: DiagramLane[] = [...totals.entries()]
    .filter(([, lane]) => lane.units > 0)
    .map(([key, lane]) => ({
      key,
      ...lane,
      width: MIN_LANE_WIDTH + (MAX_LANE_WIDTH - MIN_LANE_WIDTH) * (busiest > 0 ? lane.units / busiest : 0),
    }))
    // Thin lanes drawn last stay visible on top of wide ones.
    .sort((a, b) => b.units - a.units);
  return { width: DIAGRAM_WIDTH, height: DIAGRAM_HEIGHT, zones, nodes, lanes };
}
