import type { NetworkData, Scenario, ScenarioChange } from '@ps/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LabelledSelect, plainOptions } from './LabelledSelect';
import { toast } from '@/components/ui/use-toast';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { createScenario, deleteScenario, optichainKeys } from '../optichain-api';

type DraftKind = 'close-dc' | 'open-dc' | 'dc-throughput' | 'plant-capacity' | 'demand';
type Draft = {
  kind: DraftKind;
  dcId: string;
  plantId: string;
  family: string;
  region: string;
  value: string;
};

const EMPTY_DRAFT: Draft = {
  kind: 'close-dc',
  dcId: '',
  plantId: '',
  family: 'all',
  region: 'all',
  value: '',
};

/** The change a draft describes, or null while it is incomplete. */
function changeOf(draft: Draft): ScenarioChange | null {
  const value = Number(draft.value);
  const orNull = (text: string) => (text === 'all' ? null : text);
  switch (draft.kind) {
    case 'close-dc':
    case 'open-dc':
      return draft.dcId
        ? {
            kind: 'dc-decision',
            dcId: Number(draft.dcId),
            decision: draft.kind === 'close-dc' ? 'closed' : 'open',
          }
        : null;
    case 'dc-throughput':
      return draft.dcId && draft.value !== '' && Number.isFinite(value)
        ? { kind: 'dc-throughput', dcId: Number(draft.dcId), throughputPerMonth: value }
        : null;
    case 'plant-capacity':
      return draft.plantId && draft.value !== '' && Number.isFinite(value)
        ? {
            kind: 'plant-capacity',
            plantId: Number(draft.plantId),
            family: orNull(draft.family),
            percent: value,
          }
        : null;
    case 'demand':
      return draft.value !== '' && Number.isFinite(value)
        ? { kind: 'demand', percent: value, region: orNull(draft.region), family: orNull(draft.family) }
        : null;
  }
}

/** A change in a planner's words. */
export function useDescribeChange(network: NetworkData | undefined) {
  const { t } = useTranslation();
  const format = useFormatters();
  const dcName = (id: number) => network?.dcs.find((dc) => dc.id === id)?.name ?? `#${id}`;
  const plantName = (id: number) => network?.plants.find((p) => p.id === id)?.name ?? `#${id}`;
  const all = t('optichain:scenario.all');
  return (change: ScenarioChange): string => {
    switch (change.kind) {
      case 'dc-decision':
        return change.decision === 'closed'
          ? t('optichain:scenario.describeClose', { dc: dcName(change.dcId) })
          : change.decision === 'open'
            ? t('optichain:scenario.describeOpen', { dc: dcName(change.dcId) })
            : t('optichain:scenario.describeAuto', { dc: dcName(change.dcId) });
      case 'dc-throughput':
        return t('optichain:scenario.describeThroughput', {
          dc: dcName(change.dcId),
          units: format.number(change.throughputPerMonth),
        });
      case 'plant-capacity':
        return t('optichain:scenario.describeCapacity', {
          plant: plantName(change.plantId),
          family: change.family ?? all,
          percent: format.signedPercent(change.percent),
        });
      case 'demand':
        return t('optichain:scenario.describeDemand', {
          region: change.region ?? all,
          family: change.family ?? all,
          percent: format.signedPercent(change.percent),
        });
    }
  };
}

/** Builds and saves scenarios (changes to the network or demand) and lists the saved ones. */
export function ScenarioPanel({
  network,
  scenarios,
}: {
  network: NetworkData;
  scenarios: readonly Scenario[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const describe = useDescribeChange(network);
  const [name, setName] = useState('');
  const [changes, setChanges] = useState<ScenarioChange[]>([]);
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const draftChange = changeOf(draft);
  const save = useMutation({
    mutationFn: () => createScenario({ name, changes }),
    onSuccess: (scenario) => {
      void queryClient.invalidateQueries({ queryKey: optichainKeys.scenarios });
      toast({ title: t('optichain:scenario.saved'), description: scenario.name });
      setName('');
      setChanges([]);
    },
    onError: (error) =>
      toast({
        title: t('optichain:scenario.saveFailed'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });
  const remove = useMutation({
    mutationFn: deleteScenario,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: optichainKeys.scenarios }),
    onError: (error) =>
      toast({
        title: t('optichain:scenario.deleteFailed'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });
  const field = 'flex flex-col gap-1 text-xs text-muted-foreground';
  const input = 'h-9 rounded-md border border-input bg-background px-3 text-sm text-foreground';
  const needsDc = draft.kind === 'close-dc' || draft.kind === 'open-dc' || draft.kind === 'dc-throughput';

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="flex flex-col gap-4">
        <label className={field}>
          {t('optichain:scenario.name')}
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('optichain:scenario.namePlaceholder')}
            className={input}
            data-testid="scenario-name"
          />
        </label>
        <div className="flex flex-wrap items-end gap-3 rounded-md border border-border p-3">
          <LabelledSelect
            label={t('optichain:scenario.change')}
            value={draft.kind}
            onChange={(kind) => set({ kind: kind as DraftKind, value: '' })}
            options={[
              { value: 'close-dc', label: t('optichain:scenario.kindClose') },
              { value: 'open-dc', label: t('optichain:scenario.kindOpen') },
              { value: 'dc-throughput', label: t('optichain:scenario.kindThroughput') },
              { value: 'plant-capacity', label: t('optichain:scenario.kindCapacity') },
              { value: 'demand', label: t('optichain:scenario.kindDemand') },
            ]}
            triggerClass="w-48"
            testId="change-kind"
          />
          {needsDc && (
            <LabelledSelect
              label={t('optichain:scenario.dc')}
              value={draft.dcId}
              onChange={(dcId) => set({ dcId })}
              options={network.dcs.map((dc) => ({ value: String(dc.id), label: dc.name }))}
              triggerClass="w-44"
              placeholder={t('optichain:scenario.chooseDc')}
              testId="change-dc"
            />
          )}
          {draft.kind === 'plant-capacity' && (
            <LabelledSelect
              label={t('optichain:scenario.plant')}
              value={draft.plantId}
              onChange={(plantId) => set({ plantId })}
              options={network.plants.map((plant) => ({ value: String(plant.id), label: plant.name }))}
              triggerClass="w-44"
              placeholder={t('optichain:scenario.choosePlant')}
            />
          )}
          {draft.kind === 'demand' && (
            <LabelledSelect
              label={t('optichain:scenario.region')}
              value={draft.region}
              onChange={(region) => set({ region })}
              options={plainOptions(network.regions, t('optichain:scenario.all'))}
              triggerClass="w-40"
            />
          )}
          {(draft.kind === 'demand' || draft.kind === 'plant-capacity') && (
            <LabelledSelect
              label={t('optichain:flows.family')}
              value={draft.family}
              onChange={(family) => set({ family })}
              options={plainOptions(network.families, t('optichain:scenario.all'))}
              triggerClass="w-48"
            />
          )}
          {draft.kind !== 'close-dc' && draft.kind !== 'open-dc' && (
            <label className={field}>
              {draft.kind === 'dc-throughput'
                ? t('optichain:scenario.unitsPerMonth')
                : t('optichain:scenario.percent')}
              <input
                type="number"
                value={draft.value}
                onChange={(event) => set({ value: event.target.value })}
                className={`${input} w-32`}
              />
            </label>
          )}
          <Button
            variant="outline"
            onClick={() => {
              if (!draftChange) return;
              setChanges((current) => [...current, draftChange]);
              setDraft(EMPTY_DRAFT);
            }}
            disabled={!draftChange}
            data-testid="add-change"
          >
            <Plus aria-hidden />
            {t('optichain:scenario.addChange')}
          </Button>
        </div>
        {changes.length > 0 && (
          <ul className="flex flex-col gap-1 text-sm">
            {changes.map((change, index) => (
              <li
                key={index}
                className="flex items-center justify-between gap-2 rounded-md bg-muted px-3 py-1.5"
              >
                <span>{describe(change)}</span>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t('optichain:scenario.removeChange')}
                  onClick={() => setChanges((current) => current.filter((_, i) => i !== index))}
                >
                  <X aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button
            onClick={() => save.mutate()}
            disabled={name.trim() === '' || changes.length === 0 || save.isPending}
            data-testid="save-scenario"
          >
            {t('optichain:scenario.save')}
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-2">
        <h4 className="text-sm font-semibold">{t('optichain:scenario.savedTitle')}</h4>
        {scenarios.length === 0 && (
          <p className="text-sm text-muted-foreground">{t('optichain:scenario.none')}</p>
        )}
        {scenarios.map((scenario) => (
          <div
            key={scenario.id}
            className="flex items-start justify-between gap-2 rounded-md border border-border p-3"
          >
            <div className="flex flex-col gap-1">
              <span className="text-sm font-medium">{scenario.name}</span>
              {scenario.changes.map((change, index) => (
                <span key={index} className="text-xs text-muted-foreground">
                  {describe(change)}
                </span>
              ))}
            </div>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('optichain:scenario.delete')}
              onClick={() => remove.mutate(scenario.id)}
            >
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
      </div>
    </div>
  );
}
