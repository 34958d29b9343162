import type { DcDecision, NetworkData } from '@ps/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import {
  deleteLane,
  deleteNode,
  optichainKeys,
  updateDc,
  updateLane,
  updatePlant,
  updateSettings,
} from '../optichain-api';
import { AddToNetwork, DeleteButton } from './NetworkChanges';

/** A number field that saves when the planner leaves it or presses Enter, if the value changed. */
function NumberCell({
  value,
  label,
  onCommit,
}: {
  value: number;
  label: string;
  onCommit: (value: number) => void;
}) {
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The server's value changed (a save, a refetch): show it.
    setShown(value);
    setText(String(value));
  }
  const commit = () => {
    const next = Number(text);
    if (text.trim() === '' || !Number.isFinite(next)) setText(String(value));
    else if (next !== value) onCommit(next);
  };
  return (
    <input
      type="number"
      value={text}
      aria-label={label}
      onChange={(event) => setText(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => event.key === 'Enter' && commit()}
      className="h-8 w-28 rounded-md border border-input bg-background px-2 text-right text-sm tabular-nums"
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      <div className="max-h-96 overflow-auto rounded-md border border-border">{children}</div>
    </section>
  );
}

const th = 'px-3 py-2 font-medium';
const td = 'px-3 py-1';

/**
 * The network's data, editable in place: DCs, plant capacity and cost per family, lanes, the unmet
 * penalty; plants, DCs and lanes are added below the tables and deleted from their rows.
 */
export function NetworkEditor({ network }: { network: NetworkData }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const edit = useMutation({
    mutationFn: (call: () => Promise<NetworkData>) => call(),
    onSuccess: (data) => {
      queryClient.setQueryData(optichainKeys.network, data);
      toast({ title: t('optichain:network.saved') });
    },
    onError: (error) =>
      toast({
        title: t('optichain:network.saveFailed'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });
  const plantName = new Map(network.plants.map((p) => [p.id, p.name]));
  const dcName = new Map(network.dcs.map((dc) => [dc.id, dc.name]));
  const lanesOfDc = (id: number) =>
    network.inboundLanes.filter((l) => l.dcId === id).length +
    network.outboundLanes.filter((l) => l.dcId === id).length;
  const lanesOfPlant = (id: number) => network.inboundLanes.filter((l) => l.plantId === id).length;
  const deletePlant = (id: number, name: string) => (
    <DeleteButton
      name={name}
      lanes={lanesOfPlant(id)}
      onConfirm={() => edit.mutate(() => deleteNode('plant', id, lanesOfPlant(id) > 0))}
    />
  );
  const decisionLabels: Record<DcDecision, string> = {
    auto: t('optichain:network.decisionAuto'),
    open: t('optichain:network.decisionOpen'),
    closed: t('optichain:network.decisionClosed'),
  };

  return (
    <div className="flex flex-col gap-6" data-testid="network-editor">
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          <Switch
            checked={network.unmetPenaltyPerUnit !== null}
            onCheckedChange={(checked) =>
              edit.mutate(() => updateSettings({ unmetPenaltyPerUnit: checked ? 100 : null }))
            }
            aria-label={t('optichain:network.allowUnmet')}
          />
          {t('optichain:network.allowUnmet')}
        </label>
        {network.unmetPenaltyPerUnit !== null && (
          <label className="flex items-center gap-2">
            {t('optichain:network.penalty')}
            <NumberCell
              value={network.unmetPenaltyPerUnit}
              label={t('optichain:network.penalty')}
              onCommit={(value) => edit.mutate(() => updateSettings({ unmetPenaltyPerUnit: value }))}
            />
          </label>
        )}
      </div>
      <Section title={t('optichain:network.dcs')}>
        <table className="w-full text-sm">
          <thead className="sticky top-0 bg-card">
            <tr className="border-b border-border text-left text-muted-foreground">
              <th className={th}>{t('optichain:network.dc')}</th>
              <th className={th}>{t('optichain:network.region')}</th>
              <th className={th}>{t('optichain:network.throughput')}</th>
              <th className={th}>{t('optichain:network.fixedCost')}</th>
              <th className={th}>{t('optichain:network.handling')}</th>
              <th className={th}>{t('optichain:network.decision')}</th>
              <th className={th}>
                <span className="sr-only">{t('optichain:network.delete')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {network.dcs.map((dc) => (
              <tr key={dc.id} className="border-b border-border last:border-0">
                <td className={td}>{dc.name}</td>
                <td className={td}>{dc.region}</td>
                <td className={td}>
                  <NumberCell
                    value={dc.throughputPerMonth}
                    label={t('optichain:network.throughput')}
                    onCommit={(throughputPerMonth) =>
                      edit.mutate(() => updateDc(dc.id, { throughputPerMonth }))
                    }
                  />
                </td>
                <td className={td}>
                  <NumberCell
                    value={dc.fixedCostPerMonth}
                    label={t('optichain:network.fixedCost')}
                    onCommit={(fixedCostPerMonth) =>
                      edit.mutate(() => updateDc(dc.id, { fixedCostPerMonth }))
                    }
                  />
                </td>
                <td className={td}>
                  <NumberCell
                    value={dc.handlingCostPerUnit}
                    label={t('optichain:network.handling')}
                    onCommit={(handlingCostPerUnit) =>
                      edit.mutate(() => updateDc(dc.id, { handlingCostPerUnit }))
                    }
                  />
                </td>
                <td className={td}>
                  <Select
                    value={dc.decision}
                    onValueChange={(decision) =>
                      edit.mutate(() => updateDc(dc.id, { decision: decision as DcDecision }))
                    }
                  >
                    <SelectTrigger className="h-8 w-40" aria-label={t('optichain:network.decision')}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {(['auto', 'open', 'closed'] as const).map((decision) => (
                        <SelectItem key={decision} value={decision}>
                          {decisionLabels[decision]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </td>
                <td className={td}>
                  <DeleteButton
                    name={dc.name}
                    lanes={lanesOfDc(dc.id)}
                    onConfirm={() => edit.mutate(() => deleteNode('dc', dc.id, lanesOfDc(dc.id) > 0))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title={t('optichain:network.plants')}>
        <table className="w-full text-sm">
          <thead className="sticky top-0 bg-card">
            <tr className="border-b border-border text-left text-muted-foreground">
              <th className={th}>{t('optichain:network.plant')}</th>
              <th className={th}>{t('optichain:flows.family')}</th>
              <th className={th}>{t('optichain:network.capacity')}</th>
              <th className={th}>{t('optichain:network.unitCost')}</th>
            </tr>
          </thead>
          <tbody>
            {network.plants.flatMap((plant) => [
              ...plant.families.map((family, index) => (
                <tr key={`${plant.id}|${family.family}`} className="border-b border-border last:border-0">
                  <td className={td}>
                    <span className="inline-flex items-center gap-1">
                      {plant.name}
                      {index === 0 && deletePlant(plant.id, plant.name)}
                    </span>
                  </td>
                  <td className={td}>{family.family}</td>
                  <td className={td}>
                    <NumberCell
                      value={family.capacityPerMonth}
                      label={t('optichain:network.capacity')}
                      onCommit={(capacityPerMonth) =>
                        edit.mutate(() =>
                          updatePlant(plant.id, { families: [{ ...family, capacityPerMonth }] }),
                        )
                      }
                    />
                  </td>
                  <td className={td}>
                    <NumberCell
                      value={family.unitCost}
                      label={t('optichain:network.unitCost')}
                      onCommit={(unitCost) =>
                        edit.mutate(() => updatePlant(plant.id, { families: [{ ...family, unitCost }] }))
                      }
                    />
                  </td>
                </tr>
              )),
              // A plant that makes nothing yet still has a row, to be seen and deleted.
              ...(plant.families.length === 0
                ? [
                    <tr key={plant.id} className="border-b border-border last:border-0">
                      <td className={td}>
                        <span className="inline-flex items-center gap-1">
                          {plant.name}
                          {deletePlant(plant.id, plant.name)}
                        </span>
                      </td>
                      <td className={td} colSpan={3} />
                    </tr>,
                  ]
                : []),
            ])}
          </tbody>
        </table>
      </Section>
      <Section title={t('optichain:network.lanes')}>
        <table className="w-full text-sm">
          <thead className="sticky top-0 bg-card">
            <tr className="border-b border-border text-left text-muted-foreground">
              <th className={th}>{t('optichain:flows.from')}</th>
              <th className={th}>{t('optichain:flows.to')}</th>
              <th className={th}>{t('optichain:network.laneCost')}</th>
              <th className={th}>{t('optichain:flows.leadTime')}</th>
              <th className={th}>
                <span className="sr-only">{t('optichain:network.delete')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {[
              ...network.inboundLanes.map((lane) => ({
                lane,
                from: plantName.get(lane.plantId) ?? '',
                to: dcName.get(lane.dcId) ?? '',
              })),
              ...network.outboundLanes.map((lane) => ({
                lane,
                from: dcName.get(lane.dcId) ?? '',
                to: lane.region,
              })),
            ].map(({ lane, from, to }) => (
              <tr key={lane.id} className="border-b border-border last:border-0">
                <td className={td}>{from}</td>
                <td className={td}>{to}</td>
                <td className={td}>
                  <NumberCell
                    value={lane.costPerUnit}
                    label={t('optichain:network.laneCost')}
                    onCommit={(costPerUnit) => edit.mutate(() => updateLane(lane.id, { costPerUnit }))}
                  />
                </td>
                <td className={td}>
                  <NumberCell
                    value={lane.leadTimeDays}
                    label={t('optichain:flows.leadTime')}
                    onCommit={(leadTimeDays) => edit.mutate(() => updateLane(lane.id, { leadTimeDays }))}
                  />
                </td>
                <td className={td}>
                  <DeleteButton
                    name={`${from} → ${to}`}
                    lanes={null}
                    onConfirm={() => edit.mutate(() => deleteLane(lane.id))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <AddToNetwork network={network} save={(call) => edit.mutate(call)} />
    </div>
  );
}
