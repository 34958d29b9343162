import type {
  NetworkData,
  Scenario,
  ScenarioChange,
  ZCreateDcBody,
  ZCreateLaneBody,
  ZCreatePlantBody,
  ZScenarioBody,
  ZUpdateDcBody,
  ZUpdateLaneBody,
} from '@ps/domain';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { Database, NetworkAuditTable, NetworkLanesTable } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import {
  deleteLane,
  deleteNode,
  deleteScenario,
  findDc,
  findLane,
  findNode,
  insertAudit,
  insertDc,
  insertLane,
  insertPlant,
  lanesOf,
  insertScenario,
  listScenarios,
  loadNetwork,
  plantExists,
  plantFamilies,
  readPenalty,
  updateDc,
  updateLane,
  scenariosNaming,
  updateScenario,
  upsertPlantFamily,
  writePenalty,
  type ScenarioRow,
} from './optimisation.repository';

type AuditRow = Insertable<NetworkAuditTable>;
const text = (value: number | string | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

function toScenario(row: ScenarioRow): Scenario {
  return {
    id: row.id,
    name: row.name,
    changes: row.changes as ScenarioChange[],
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

type NodeKind = 'plant' | 'dc';
const NODE_NOUN: Record<NodeKind, string> = { plant: 'Plant', dc: 'DC' };

/** A lane as the audit names it: "Toronto Plant → Dallas DC", "Dallas DC → EMEA". */
function laneText(lane: Selectable<NetworkLanesTable>, network: NetworkData): string {
  const dc = network.dcs.find((d) => d.id === lane.dc_id)?.name ?? `DC ${lane.dc_id}`;
  if (lane.leg === 'outbound') return `${dc} → ${lane.region}`;
  const plant = network.plants.find((p) => p.id === lane.plant_id)?.name ?? `Plant ${lane.plant_id}`;
  return `${plant} → ${dc}`;
}

/**
 * The supply network and its scenarios. Every change to the network is one audit row
 * per changed field (entity, id, field, old, new, who, when) in the same transaction.
 */
export class NetworkService {
  constructor(private readonly db: Kysely<Database>) {}

  network(): Promise<NetworkData> {
    return loadNetwork(this.db);
  }

  async updatePlant(
    scope: AccessScope,
    plantId: number,
    families: ReadonlyArray<{ family: string; capacityPerMonth: number; unitCost: number }>,
  ): Promise<NetworkData> {
    const known = new Set((await this.network()).families);
    for (const [index, change] of families.entries()) {
      if (!known.has(change.family)) {
        throw AppError.validation(
          `families.${index}.family names no product family`,
          `families.${index}.family`,
        );
      }
    }
    await this.db.transaction().execute(async (trx) => {
      if (!(await plantExists(trx, plantId))) throw AppError.notFound(`Plant ${plantId} was not found`);
      const before = new Map((await plantFamilies(trx, plantId)).map((f) => [f.family, f]));
      const audit: AuditRow[] = [];
      for (const change of families) {
        const old = before.get(change.family);
        const row = { plant_id: plantId, family: change.family };
        if (old?.capacity_per_month !== change.capacityPerMonth) {
          audit.push(
            this.audit(
              scope,
              'plant',
              plantId,
              `${change.family}.capacityPerMonth`,
              old?.capacity_per_month,
              change.capacityPerMonth,
            ),
          );
        }
        if (old?.unit_cost !== change.unitCost) {
          audit.push(
            this.audit(scope, 'plant', plantId, `${change.family}.unitCost`, old?.unit_cost, change.unitCost),
          );
        }
        await upsertPlantFamily(trx, {
          ...row,
          capacity_per_month: change.capacityPerMonth,
          unit_cost: change.unitCost,
        });
      }
      await insertAudit(trx, audit);
    });
    return this.network();
  }

  async updateDc(
    scope: AccessScope,
    dcId: number,
    body: z.output<typeof ZUpdateDcBody>,
  ): Promise<NetworkData> {
    await this.db.transaction().execute(async (trx) => {
      const dc = await findDc(trx, dcId);
      if (!dc) throw AppError.notFound(`DC ${dcId} was not found`);
      const next = {
        throughput_per_month: body.throughputPerMonth ?? dc.throughput_per_month,
        fixed_cost_per_month: body.fixedCostPerMonth ?? dc.fixed_cost_per_month,
        handling_cost_per_unit: body.handlingCostPerUnit ?? dc.handling_cost_per_unit,
        decision: body.decision ?? dc.decision,
      };
      const fields = [
        ['throughputPerMonth', dc.throughput_per_month, next.throughput_per_month],
        ['fixedCostPerMonth', dc.fixed_cost_per_month, next.fixed_cost_per_month],
        ['handlingCostPerUnit', dc.handling_cost_per_unit, next.handling_cost_per_unit],
        ['decision', dc.decision, next.decision],
      ] as const;
      const audit = fields
        .filter(([, old, value]) => old !== value)
        .map(([field, old, value]) => this.audit(scope, 'dc', dcId, field, old, value));
      if (audit.length === 0) return;
      await updateDc(trx, dcId, next);
      await insertAudit(trx, audit);
    });
    return this.network();
  }

  async updateLane(
    scope: AccessScope,
    laneId: number,
    body: z.output<typeof ZUpdateLaneBody>,
  ): Promise<NetworkData> {
    await this.db.transaction().execute(async (trx) => {
      const lane = await findLane(trx, laneId);
      if (!lane) throw AppError.notFound(`Lane ${laneId} was not found`);
      const next = {
        cost_per_unit: body.costPerUnit ?? lane.cost_per_unit,
        lead_time_days: body.leadTimeDays ?? lane.lead_time_days,
      };
      const audit = [
        ['costPerUnit', lane.cost_per_unit, next.cost_per_unit],
        ['leadTimeDays', lane.lead_time_days, next.lead_time_days],
      ]
        .filter(([, old, value]) => old !== value)
        .map(([field, old, value]) => this.audit(scope, 'lane', laneId, String(field), old, value));
      if (audit.length === 0) return;
      await updateLane(trx, laneId, next);
      await insertAudit(trx, audit);
    });
    return this.network();
  }

  async createPlant(scope: AccessScope, body: z.output<typeof ZCreatePlantBody>): Promise<NetworkData> {
    const network = await this.network();
    this.checkRegion(network, body.region, 'region');
    const families = new Set(network.families);
    const seen = new Set<string>();
    for (const [index, f] of body.families.entries()) {
      const field = `families.${index}.family`;
      if (!families.has(f.family)) throw AppError.validation(`${field} names no product family`, field);
      if (seen.has(f.family)) throw AppError.validation(`${field} repeats ${f.family}`, field);
      seen.add(f.family);
    }
    await this.db.transaction().execute(async (trx) => {
      const id = await insertPlant(trx, { name: body.name, region: body.region });
      if (id === null) throw new AppError('CONFLICT', `A plant named "${body.name}" already exists`);
      for (const f of body.families) {
        await upsertPlantFamily(trx, {
          plant_id: id,
          family: f.family,
          capacity_per_month: f.capacityPerMonth,
          unit_cost: f.unitCost,
        });
      }
      await insertAudit(trx, [
        this.audit(scope, 'plant', id, 'name', null, body.name),
        this.audit(scope, 'plant', id, 'region', null, body.region),
        ...body.families.flatMap((f) => [
          this.audit(scope, 'plant', id, `${f.family}.capacityPerMonth`, null, f.capacityPerMonth),
          this.audit(scope, 'plant', id, `${f.family}.unitCost`, null, f.unitCost),
        ]),
      ]);
    });
    return this.network();
  }

  async createDc(scope: AccessScope, body: z.output<typeof ZCreateDcBody>): Promise<NetworkData> {
    this.checkRegion(await this.network(), body.region, 'region');
    await this.db.transaction().execute(async (trx) => {
      const id = await insertDc(trx, {
        name: body.name,
        region: body.region,
        throughput_per_month: body.throughputPerMonth,
        fixed_cost_per_month: body.fixedCostPerMonth,
        handling_cost_per_unit: body.handlingCostPerUnit,
        decision: body.decision,
      });
      if (id === null) throw new AppError('CONFLICT', `A DC named "${body.name}" already exists`);
      const fields = [
        ['name', body.name],
        ['region', body.region],
        ['throughputPerMonth', body.throughputPerMonth],
        ['fixedCostPerMonth', body.fixedCostPerMonth],
        ['handlingCostPerUnit', body.handlingCostPerUnit],
        ['decision', body.decision],
      ] as const;
      await insertAudit(
        trx,
        fields.map(([field, value]) => this.audit(scope, 'dc', id, field, null, value)),
      );
    });
    return this.network();
  }

  async createLane(scope: AccessScope, body: z.output<typeof ZCreateLaneBody>): Promise<NetworkData> {
    const network = await this.network();
    if (body.leg === 'inbound' && !network.plants.some((p) => p.id === body.plantId)) {
      throw AppError.validation('plantId names no plant of the network', 'plantId');
    }
    if (!network.dcs.some((dc) => dc.id === body.dcId)) {
      throw AppError.validation('dcId names no DC of the network', 'dcId');
    }
    if (body.leg === 'outbound') this.checkRegion(network, body.region, 'region');
    await this.db.transaction().execute(async (trx) => {
      const lane = {
        leg: body.leg,
        plant_id: body.leg === 'inbound' ? body.plantId : null,
        dc_id: body.dcId,
        region: body.leg === 'outbound' ? body.region : null,
        cost_per_unit: body.costPerUnit,
        lead_time_days: body.leadTimeDays,
      };
      const id = await insertLane(trx, lane);
      const text = laneText({ ...lane, id: id ?? 0 }, network);
      if (id === null) throw new AppError('CONFLICT', `The lane ${text} already exists`);
      await insertAudit(trx, [
        this.audit(scope, 'lane', id, 'lane', null, text),
        this.audit(scope, 'lane', id, 'costPerUnit', null, body.costPerUnit),
        this.audit(scope, 'lane', id, 'leadTimeDays', null, body.leadTimeDays),
      ]);
    });
    return this.network();
  }

  /**
   * Deletes a plant or DC. A saved scenario naming it would no longer mean anything: 409 until
   * the scenario is changed. Lanes using it: 409 naming how many, unless the caller confirmed
   * (withLanes), then they are deleted with it, each audited.
   */
  async deleteNode(scope: AccessScope, kind: NodeKind, id: number, withLanes: boolean): Promise<NetworkData> {
    const network = await this.network();
    await this.db.transaction().execute(async (trx) => {
      const node = await findNode(trx, kind, id);
      if (!node) throw AppError.notFound(`${NODE_NOUN[kind]} ${id} was not found`);
      const scenarios = await scenariosNaming(trx, kind, id);
      if (scenarios.length > 0) {
        throw new AppError(
          'CONFLICT',
          `${node.name} is named by the scenario${scenarios.length > 1 ? 's' : ''} ${scenarios.map((n) => `"${n}"`).join(', ')}; change or delete ${scenarios.length > 1 ? 'them' : 'it'} first`,
        );
      }
      const lanes = await lanesOf(trx, kind, id);
      if (lanes.length > 0 && !withLanes) {
        throw new AppError(
          'CONFLICT',
          `${node.name} is used by ${lanes.length} lane${lanes.length > 1 ? 's' : ''}; delete ${lanes.length > 1 ? 'them' : 'it'} first or confirm deleting ${node.name} with its lanes (withLanes=true)`,
        );
      }
      await deleteNode(trx, kind, id);
      await insertAudit(trx, [
        ...lanes.map((lane) => this.audit(scope, 'lane', lane.id, 'deleted', laneText(lane, network), null)),
        this.audit(scope, kind, id, 'deleted', node.name, null),
      ]);
    });
    return this.network();
  }

  async deleteLane(scope: AccessScope, id: number): Promise<NetworkData> {
    const network = await this.network();
    await this.db.transaction().execute(async (trx) => {
      const lane = await findLane(trx, id);
      if (!lane || !(await deleteLane(trx, id))) throw AppError.notFound(`Lane ${id} was not found`);
      await insertAudit(trx, [this.audit(scope, 'lane', id, 'deleted', laneText(lane, network), null)]);
    });
    return this.network();
  }

  /** Nodes sit in a customer region (the diagram places them by it; lanes ship to them). */
  private checkRegion(network: NetworkData, region: string, field: string): void {
    if (!network.regions.includes(region)) {
      throw AppError.validation(`${field} must be one of ${network.regions.join(', ')}`, field);
    }
  }

  async updatePenalty(scope: AccessScope, penalty: number | null): Promise<NetworkData> {
    await this.db.transaction().execute(async (trx) => {
      const old = await readPenalty(trx);
      if (old === penalty) return;
      await writePenalty(trx, penalty);
      await insertAudit(trx, [this.audit(scope, 'settings', 1, 'unmetPenaltyPerUnit', old, penalty)]);
    });
    return this.network();
  }

  async scenarios(): Promise<Scenario[]> {
    return (await listScenarios(this.db)).map(toScenario);
  }

  async createScenario(scope: AccessScope, body: z.output<typeof ZScenarioBody>): Promise<Scenario> {
    await this.checkChanges(body.changes);
    const row = await insertScenario(this.db, { ...body, createdBy: scope.userName });
    if (!row) throw new AppError('CONFLICT', `A scenario named "${body.name}" already exists`);
    return toScenario(row);
  }

  async updateScenario(id: number, body: z.output<typeof ZScenarioBody>): Promise<Scenario> {
    await this.checkChanges(body.changes);
    const row = await updateScenario(this.db, id, body);
    if (row === 'missing') throw AppError.notFound(`Scenario ${id} was not found`);
    if (row === 'duplicate') throw new AppError('CONFLICT', `A scenario named "${body.name}" already exists`);
    return toScenario(row);
  }

  async deleteScenario(id: number): Promise<{ id: number }> {
    if (!(await deleteScenario(this.db, id))) throw AppError.notFound(`Scenario ${id} was not found`);
    return { id };
  }

  /** A change must name a DC, plant, region or family of the network, or it would silently do nothing. */
  private async checkChanges(changes: readonly ScenarioChange[]): Promise<void> {
    const network = await this.network();
    const dcIds = new Set(network.dcs.map((dc) => dc.id));
    const plantIds = new Set(network.plants.map((p) => p.id));
    const regions = new Set(network.regions);
    const families = new Set(network.families);
    for (const [index, change] of changes.entries()) {
      const at = (field: string): string => `changes.${index}.${field}`;
      switch (change.kind) {
        case 'dc-decision':
        case 'dc-throughput':
          if (!dcIds.has(change.dcId))
            throw AppError.validation(`${at('dcId')} names no DC of the network`, at('dcId'));
          break;
        case 'plant-capacity':
          if (!plantIds.has(change.plantId)) {
            throw AppError.validation(`${at('plantId')} names no plant of the network`, at('plantId'));
          }
          if (change.family !== null && !families.has(change.family)) {
            throw AppError.validation(`${at('family')} names no product family`, at('family'));
          }
          break;
        case 'demand':
          if (change.region !== null && !regions.has(change.region)) {
            throw AppError.validation(`${at('region')} names no customer region`, at('region'));
          }
          if (change.family !== null && !families.has(change.family)) {
            throw AppError.validation(`${at('family')} names no product family`, at('family'));
          }
          break;
      }
    }
  }

  private audit(
    scope: AccessScope,
    entity: string,
    entityId: number,
    field: string,
    oldValue: number | string | null | undefined,
    newValue: number | string | null | undefined,
  ): AuditRow {
    return {
      entity,
      entity_id: entityId,
      field,
      old_value: text(oldValue),
      new_value: text(newValue),
      changed_by: scope.userName,
    };
  }
}
