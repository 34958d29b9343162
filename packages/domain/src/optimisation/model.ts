import type {
  DemandCell,
  DistributionCentre,
  InboundLane,
  NetworkInstance,
  OutboundLane,
  Plant,
  PlantFamily,
} from './network';

/** A flow variable plant → DC of one family in one period (x in docs/optimisation.md). */
export type InboundVariable = {
  name: string;
  plant: Plant;
  dc: DistributionCentre;
  lane: InboundLane;
  supply: PlantFamily;
  family: string;
  period: string;
  /** Production + lane cost per unit. */
  cost: number;
};

/** A flow variable DC → region of one family in one period (z). */
export type OutboundVariable = {
  name: string;
  dc: DistributionCentre;
  lane: OutboundLane;
  region: string;
  family: string;
  period: string;
  /** Handling + lane cost per unit. */
  cost: number;
};

/** Unserved demand of a region, family and period (u). */
export type UnmetVariable = { name: string; cell: DemandCell };

/** A DC's open decision (y), binary unless fixed by its decision. */
export type OpenVariable = { name: string; dc: DistributionCentre; fixedCost: number };

/** The model's variables, in a fixed order derived from the instance alone. */
export type ModelVariables = {
  inbound: InboundVariable[];
  outbound: OutboundVariable[];
  unmet: UnmetVariable[];
  open: OpenVariable[];
  /** DCs left out of the model: closed by decision, or with no lane that could serve demand. */
  excludedDcs: DistributionCentre[];
  demand: DemandCell[];
  months: number;
};

const cellKey = (region: string, family: string, period: string): string =>
  `${region}\u0001${family}\u0001${period}`;

/** Total months of the horizon: a DC's fixed cost is paid for each month it is open. */
export function horizonMonths(instance: NetworkInstance): number {
  return instance.periods.reduce((sum, p) => sum + p.months, 0);
}

/** Demand cells with units to serve in the horizon's periods. */
export function demandInHorizon(instance: NetworkInstance): DemandCell[] {
  const periods = new Set(instance.periods.map((p) => p.key));
  return instance.demand.filter((cell) => cell.units > 0 && periods.has(cell.period));
}

/**
 * The variables of the model. Only flows that can matter are created: a plant → DC flow for a
 * family the plant makes and a period where some region reachable from that DC wants the family,
 * a DC → region flow only where the region has demand; DCs closed by decision get none.
 * Names carry array positions only (LP names must not hold spaces or arbitrary text).
 */
export function enumerateVariables(instance: NetworkInstance): ModelVariables {
  const months = horizonMonths(instance);
  const periodIndex = new Map(instance.periods.map((p, i) => [p.key, i]));
  const demand = demandInHorizon(instance);
  const plantIndex = new Map(instance.plants.map((plant, i) => [plant.id, i]));
  const dcIndex = new Map(instance.dcs.map((dc, i) => [dc.id, i]));
  const families = [...new Set(demand.map((c) => c.family))].sort();
  const familyIndex = new Map(families.map((f, i) => [f, i]));
  const regions = [
    ...new Set([...instance.outboundLanes.map((l) => l.region), ...demand.map((c) => c.region)]),
  ].sort();
  const regionIndex = new Map(regions.map((r, i) => [r, i]));

  const outbound: OutboundVariable[] = [];
  const dcFamilyPeriods = new Map<number, Set<string>>();
  for (const lane of instance.outboundLanes) {
    const d = dcIndex.get(lane.dcId);
    if (d === undefined) continue;
    const dc = instance.dcs[d]!;
    if (dc.decision === 'closed') continue;
    for (const cell of demand) {
      if (cell.region !== lane.region) continue;
      const t = periodIndex.get(cell.period);
      if (t === undefined) continue;
      const f = familyIndex.get(cell.family)!;
      outbound.push({
        name: `z_${d}_${regionIndex.get(lane.region)}_${f}_${t}`,
        dc,
        lane,
        region: lane.region,
        family: cell.family,
        period: cell.period,
        cost: dc.handlingCostPerUnit + lane.costPerUnit,
      });
      const wanted = dcFamilyPeriods.get(dc.id) ?? new Set<string>();
      wanted.add(`${cell.family}\u0001${cell.period}`);
      dcFamilyPeriods.set(dc.id, wanted);
    }
  }

  const inbound: InboundVariable[] = [];
  for (const lane of instance.inboundLanes) {
    const p = plantIndex.get(lane.plantId);
    const d = dcIndex.get(lane.dcId);
    if (p === undefined || d === undefined) continue;
    const plant = instance.plants[p]!;
    const dc = instance.dcs[d]!;
    const wanted = dcFamilyPeriods.get(dc.id);
    if (!wanted) continue;
    for (const supply of plant.families) {
      if (supply.capacityPerMonth <= 0) continue;
      const f = familyIndex.get(supply.family);
      if (f === undefined) continue;
      for (const [t, period] of instance.periods.entries()) {
        if (!wanted.has(`${supply.family}\u0001${period.key}`)) continue;
        inbound.push({
          name: `x_${p}_${d}_${f}_${t}`,
          plant,
          dc,
          lane,
          supply,
          family: supply.family,
          period: period.key,
          cost: supply.unitCost + lane.costPerUnit,
        });
      }
    }
  }

  const usedDcs = new Set(outbound.map((v) => v.dc.id));
  const open: OpenVariable[] = [];
  const excludedDcs: DistributionCentre[] = [];
  for (const [d, dc] of instance.dcs.entries()) {
    if (!usedDcs.has(dc.id)) {
      excludedDcs.push(dc);
      continue;
    }
    open.push({ name: `y_${d}`, dc, fixedCost: dc.fixedCostPerMonth * months });
  }

  const unmet: UnmetVariable[] =
    instance.unmetPenaltyPerUnit === null
      ? []
      : demand.map((cell) => ({
          name: `u_${regionIndex.get(cell.region)}_${familyIndex.get(cell.family)}_${periodIndex.get(cell.period)}`,
          cell,
        }));
  return { inbound, outbound, unmet, open, excludedDcs, demand, months };
}

/** LP format terms, a few per line: readers need not accept arbitrarily long lines. */
function linearExpression(terms: ReadonlyArray<{ coefficient: number; name: string }>): string {
  const parts = terms.map(({ coefficient, name }, i) => {
    const sign = coefficient < 0 ? '-' : i === 0 ? '' : '+';
    const size = Math.abs(coefficient);
    return `${sign}${sign && i > 0 ? ' ' : ''}${size === 1 ? '' : `${formatNumber(size)} `}${name}`;
  });
  const lines: string[] = [];
  for (let i = 0; i < parts.length; i += 8) lines.push(parts.slice(i, i + 8).join(' '));
  return lines.join('\n   ');
}

/** Plain decimal notation with enough digits for cents on millions (LP readers accept it). */
function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
}

export type BuiltModel = {
  /** The model in CPLEX LP format, as HiGHS reads it. */
  lp: string;
  variables: ModelVariables;
  /** Rows, columns and integer columns as written (HiGHS may presolve some away). */
  size: { rows: number; columns: number; integers: number };
};

/**
 * Builds the mixed-integer model of docs/optimisation.md: minimise production + transport +
 * handling + fixed DC cost + unmet-demand penalty, subject to plant capacity per family and
 * period, flow balance at each DC, DC throughput only when open, and demand served or unmet.
 */
export function buildModel(instance: NetworkInstance): BuiltModel {
  const variables = enumerateVariables(instance);
  const { inbound, outbound, unmet, open } = variables;
  const periodMonths = new Map(instance.periods.map((p) => [p.key, p.months]));
  const rows: string[] = [];
  const add = (name: string, terms: Array<{ coefficient: number; name: string }>, rhs: string): void => {
    if (terms.length > 0) rows.push(` ${name}: ${linearExpression(terms)} ${rhs}`);
  };
  const group = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
    const map = new Map<string, T[]>();
    for (const item of items) {
      const k = key(item);
      const list = map.get(k);
      if (list) list.push(item);
      else map.set(k, [item]);
    }
    return map;
  };

  // Plant capacity per family and period.
  let index = 0;
  for (const vars of group(inbound, (v) => `${v.plant.id}|${v.family}|${v.period}`).values()) {
    const first = vars[0]!;
    const capacity = first.supply.capacityPerMonth * periodMonths.get(first.period)!;
    add(
      `cap${index++}`,
      vars.map((v) => ({ coefficient: 1, name: v.name })),
      `<= ${formatNumber(capacity)}`,
    );
  }
  // Flow balance at each DC per family and period: what leaves is what arrived (no stock held).
  index = 0;
  const inboundByDcCell = group(inbound, (v) => `${v.dc.id}|${v.family}|${v.period}`);
  for (const [key, vars] of group(outbound, (v) => `${v.dc.id}|${v.family}|${v.period}`)) {
    add(
      `bal${index++}`,
      [
        ...(inboundByDcCell.get(key) ?? []).map((v) => ({ coefficient: 1, name: v.name })),
        ...vars.map((v) => ({ coefficient: -1, name: v.name })),
      ],
      '= 0',
    );
  }
  // Throughput only while open: Σ z(d,·,·,t) ≤ capacity(d,t) · y(d).
  const openByDc = new Map(open.map((o) => [o.dc.id, o]));
  index = 0;
  for (const vars of group(outbound, (v) => `${v.dc.id}|${v.period}`).values()) {
    const first = vars[0]!;
    const capacity = first.dc.throughputPerMonth * periodMonths.get(first.period)!;
    add(
      `thr${index++}`,
      [
        ...vars.map((v) => ({ coefficient: 1, name: v.name })),
        { coefficient: -capacity, name: openByDc.get(first.dc.id)!.name },
      ],
      '<= 0',
    );
  }
  // The same link per region, bounded by that region's demand: redundant for integer y, but it
  // makes the LP relaxation charge a DC's fixed cost in proportion to the demand it serves,
  // which is what lets branch-and-bound close the gap quickly.
  const demandByRegionPeriod = new Map<string, number>();
  for (const cell of variables.demand) {
    const k = `${cell.region}|${cell.period}`;
    demandByRegionPeriod.set(k, (demandByRegionPeriod.get(k) ?? 0) + cell.units);
  }
  index = 0;
  for (const vars of group(outbound, (v) => `${v.dc.id}|${v.region}|${v.period}`).values()) {
    const first = vars[0]!;
    const bound = demandByRegionPeriod.get(`${first.region}|${first.period}`) ?? 0;
    add(
      `link${index++}`,
      [
        ...vars.map((v) => ({ coefficient: 1, name: v.name })),
        { coefficient: -bound, name: openByDc.get(first.dc.id)!.name },
      ],
      '<= 0',
    );
  }
  // Demand: served through DCs plus unmet equals the plan.
  const outboundByCell = group(outbound, (v) => cellKey(v.region, v.family, v.period));
  const unmetByCell = new Map(unmet.map((u) => [cellKey(u.cell.region, u.cell.family, u.cell.period), u]));
  index = 0;
  for (const cell of variables.demand) {
    const key = cellKey(cell.region, cell.family, cell.period);
    const slack = unmetByCell.get(key);
    add(
      `dem${index++}`,
      [
        ...(outboundByCell.get(key) ?? []).map((v) => ({ coefficient: 1, name: v.name })),
        ...(slack ? [{ coefficient: 1, name: slack.name }] : []),
      ],
      `= ${formatNumber(cell.units)}`,
    );
  }

  const objective = [
    ...inbound.map((v) => ({ coefficient: v.cost, name: v.name })),
    ...outbound.map((v) => ({ coefficient: v.cost, name: v.name })),
    ...unmet.map((v) => ({ coefficient: instance.unmetPenaltyPerUnit ?? 0, name: v.name })),
    ...open.map((v) => ({ coefficient: v.fixedCost, name: v.name })),
  ].filter((t) => t.coefficient !== 0);
  // A variable absent from the objective and every row would be unknown to the reader: list
  // every column in the bounds section so the column set never depends on the costs.
  const bounds = [
    ...inbound.map((v) => ` ${v.name} >= 0`),
    ...outbound.map((v) => ` ${v.name} >= 0`),
    ...unmet.map((v) => ` ${v.name} >= 0`),
    ...open.map((v) => (v.dc.decision === 'open' ? ` ${v.name} = 1` : ` 0 <= ${v.name} <= 1`)),
  ];
  const binaries = open.filter((v) => v.dc.decision === 'auto').map((v) => v.name);
  const lp = [
    'Minimize',
    // With every cost zero the objective still names a column, as the format requires.
    ` cost: ${objective.length > 0 ? linearExpression(objective) : `0 ${firstColumn(variables)}`}`,
    'Subject To',
    ...rows,
    'Bounds',
    ...bounds,
    ...(binaries.length > 0
      ? ['Binaries', ...chunk(binaries, 10).map((names) => ` ${names.join(' ')}`)]
      : []),
    'End',
    '',
  ].join('\n');
  return {
    lp,
    variables,
    size: {
      rows: rows.length,
      columns: inbound.length + outbound.length + unmet.length + open.length,
      integers: binaries.length,
    },
  };
}

function firstColumn({ inbound, outbound, unmet, open }: ModelVariables): string {
  const first = inbound[0] ?? outbound[0] ?? unmet[0] ?? open[0];
  if (!first) throw new Error('The model has no variables: check the instance with diagnoseInstance first');
  return first.name;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
