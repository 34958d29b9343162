import type { ScenarioPreview } from '@ps/domain';
import { useQueryClient } from '@tanstack/react-query';
import { SaveIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { saveScenario } from '../ai-assistant-api';

/** A what-if is saved only after the user confirms it, through the audited batch save. */
export function ScenarioActions({ scenario }: { scenario: ScenarioPreview }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const queryClient = useQueryClient();
  const [isConfirming, setConfirming] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [isSaved, setSaved] = useState(false);

  const save = async () => {
    setConfirming(false);
    setSaving(true);
    try {
      const { name, percent, quarter, bu, pf } = scenario;
      const result = await saveScenario({
        name,
        percent,
        quarter,
        ...(bu ? { bu } : {}),
        ...(pf ? { pf } : {}),
      });
      setSaved(true);
      toast({
        title: t('ai:scenario.saved.title'),
        description: t('ai:scenario.saved.description', { records: fmt.number(result.updatedRecords) }),
      });
      // The grid, dashboard and summary all show the new plan.
      await queryClient.invalidateQueries();
    } catch (error) {
      toast({ title: t('ai:scenario.failed'), description: errorText(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button
        size="sm"
        variant="outline"
        className="mt-2"
        disabled={isSaving || isSaved}
        onClick={() => setConfirming(true)}
      >
        <SaveIcon />
        {isSaved ? t('ai:scenario.isSaved') : isSaving ? t('ai:scenario.saving') : t('ai:scenario.save')}
      </Button>
      <Dialog open={isConfirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('ai:scenario.confirmTitle', { name: scenario.name })}</DialogTitle>
            <DialogDescription>
              {t('ai:scenario.confirmDescription', {
                records: fmt.number(scenario.records),
                quarter: scenario.quarter,
                percent: scenario.percent,
              })}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              {t('ai:scenario.cancel')}
            </Button>
            <Button onClick={() => void save()}>{t('ai:scenario.confirm')}</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
