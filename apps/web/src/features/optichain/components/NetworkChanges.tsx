import type { NetworkData } from '@ps/domain';
import { Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { createDc, createLane, createPlant } from '../optichain-api';
import { LabelledSelect, plainOptions } from './LabelledSelect';

/** Runs a network change and shows its outcome (NetworkEditor's mutation). */
export type SaveNetwork = (call: () => Promise<NetworkData>) => void;

const input = 'h-8 rounded-md border border-input bg-background px-2 text-sm';
const compactTrigger = 'h-8 w-44 text-foreground';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1 text-xs text-muted-foreground">
      {label}
      {children}
    </label>
  );
}

function TextField({
  label,
  value,
  onChange,
  numeric = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  numeric?: boolean;
}) {
  return (
    <Field label={label}>
      <input
        type={numeric ? 'number' : 'text'}
        value={value}
        aria-label={label}
        onChange={(event) => onChange(event.target.value)}
        className={`${input} ${numeric ? 'w-28 text-right tabular-nums' : 'w-44'} text-foreground`}
      />
    </Field>
  );
}

function AddForm({
  title,
  testId,
  onSubmit,
  children,
}: {
  title: string;
  testId: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" data-testid={testId}>
      <span className="w-24 pb-1.5 text-sm font-medium">{title}</span>
      {children}
      <Button type="submit" size="sm" variant="outline">
        <Plus />
        {t('optichain:network.add')}
      </Button>
    </form>
  );
}

/**
 * Forms that add a DC, a plant (with one family; more through its capacity rows) and a lane. The
 * server validates every field; a refusal comes back as the mutation's error toast.
 */
export function AddToNetwork({ network, save }: { network: NetworkData; save: SaveNetwork }) {
  const { t } = useTranslation();
  const regions = network.regions.map((region) => ({ value: region, label: region }));
  const firstRegion = network.regions[0] ?? '';
  const [dc, setDc] = useState({ name: '', region: firstRegion, throughput: '', fixed: '', handling: '' });
  const [plant, setPlant] = useState({
    name: '',
    region: firstRegion,
    family: network.families[0] ?? '',
    capacity: '',
    cost: '',
  });
  const [lane, setLane] = useState({ from: '', to: '', cost: '', days: '' });
  const fromOptions = [
    ...network.plants.map((p) => ({ value: `plant:${p.id}`, label: p.name })),
    ...network.dcs.map((d) => ({ value: `dc:${d.id}`, label: d.name })),
  ];
  const fromPlant = lane.from.startsWith('plant:');
  const toOptions = fromPlant
    ? network.dcs.map((d) => ({ value: String(d.id), label: d.name }))
    : lane.from
      ? regions
      : [];
  const fromId = Number(lane.from.split(':')[1]);

  return (
    <section className="flex flex-col gap-3 rounded-md border border-border p-3" data-testid="network-add">
      <h4 className="text-sm font-semibold">{t('optichain:network.addTitle')}</h4>
      <AddForm
        title={t('optichain:network.dc')}
        testId="add-dc"
        onSubmit={() =>
          save(() =>
            createDc({
              name: dc.name,
              region: dc.region,
              throughputPerMonth: Number(dc.throughput),
              fixedCostPerMonth: Number(dc.fixed),
              handlingCostPerUnit: Number(dc.handling),
            }),
          )
        }
      >
        <TextField
          label={t('optichain:network.name')}
          value={dc.name}
          onChange={(name) => setDc({ ...dc, name })}
        />
        <LabelledSelect
          triggerClass={compactTrigger}
          label={t('optichain:network.region')}
          value={dc.region}
          options={regions}
          onChange={(region) => setDc({ ...dc, region })}
        />
        <TextField
          numeric
          label={t('optichain:network.throughput')}
          value={dc.throughput}
          onChange={(throughput) => setDc({ ...dc, throughput })}
        />
        <TextField
          numeric
          label={t('optichain:network.fixedCost')}
          value={dc.fixed}
          onChange={(fixed) => setDc({ ...dc, fixed })}
        />
        <TextField
          numeric
          label={t('optichain:network.handling')}
          value={dc.handling}
          onChange={(handling) => setDc({ ...dc, handling })}
        />
      </AddForm>
      <AddForm
        title={t('optichain:network.plant')}
        testId="add-plant"
        onSubmit={() =>
          save(() =>
            createPlant({
              name: plant.name,
              region: plant.region,
              families: [
                {
                  family: plant.family,
                  capacityPerMonth: Number(plant.capacity),
                  unitCost: Number(plant.cost),
                },
              ],
            }),
          )
        }
      >
        <TextField
          label={t('optichain:network.name')}
          value={plant.name}
          onChange={(name) => setPlant({ ...plant, name })}
        />
        <LabelledSelect
          triggerClass={compactTrigger}
          label={t('optichain:network.region')}
          value={plant.region}
          options={regions}
          onChange={(region) => setPlant({ ...plant, region })}
        />
        <LabelledSelect
          triggerClass={compactTrigger}
          label={t('optichain:flows.family')}
          value={plant.family}
          options={plainOptions(network.families)}
          onChange={(family) => setPlant({ ...plant, family })}
        />
        <TextField
          numeric
          label={t('optichain:network.capacity')}
          value={plant.capacity}
          onChange={(capacity) => setPlant({ ...plant, capacity })}
        />
        <TextField
          numeric
          label={t('optichain:network.unitCost')}
          value={plant.cost}
          onChange={(cost) => setPlant({ ...plant, cost })}
        />
      </AddForm>
      <AddForm
        title={t('optichain:network.lane')}
        testId="add-lane"
        onSubmit={() =>
          save(() =>
            createLane(
              fromPlant
                ? {
                    leg: 'inbound',
                    plantId: fromId,
                    dcId: Number(lane.to),
                    costPerUnit: Number(lane.cost),
                    leadTimeDays: Number(lane.days),
                  }
                : {
                    leg: 'outbound',
                    dcId: fromId,
                    region: lane.to,
                    costPerUnit: Number(lane.cost),
                    leadTimeDays: Number(lane.days),
                  },
            ),
          )
        }
      >
        <LabelledSelect
          triggerClass={compactTrigger}
          label={t('optichain:flows.from')}
          value={lane.from}
          options={fromOptions}
          onChange={(from) => setLane({ ...lane, from, to: '' })}
        />
        <LabelledSelect
          triggerClass={compactTrigger}
          label={t('optichain:flows.to')}
          value={lane.to}
          options={toOptions}
          onChange={(to) => setLane({ ...lane, to })}
        />
        <TextField
          numeric
          label={t('optichain:network.laneCost')}
          value={lane.cost}
          onChange={(cost) => setLane({ ...lane, cost })}
        />
        <TextField
          numeric
          label={t('optichain:flows.leadTime')}
          value={lane.days}
          onChange={(days) => setLane({ ...lane, days })}
        />
      </AddForm>
    </section>
  );
}

/**
 * A delete button that asks first. For a plant or DC the question says how many lanes go with it
 * (the server refuses a node in use unless told so: withLanes).
 */
export function DeleteButton({
  name,
  lanes,
  onConfirm,
}: {
  name: string;
  /** Lanes deleted with it; null for a lane itself. */
  lanes: number | null;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t('optichain:network.deleteNamed', { name })}
        onClick={() => setOpen(true)}
      >
        <Trash2 />
      </Button>
      <AlertDialog open={open} onOpenChange={setOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('optichain:network.deleteTitle', { name })}</AlertDialogTitle>
            <AlertDialogDescription>
              {lanes
                ? t('optichain:network.deleteWithLanes', { count: lanes })
                : t('optichain:network.deleteAudited')}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('common:cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={onConfirm}>{t('optichain:network.delete')}</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
