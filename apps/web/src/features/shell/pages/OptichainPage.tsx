import { NetworkIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { PlaceholderPanel } from '@/features/control-tower/components/PlaceholderPanel';
import { PageHeading } from '../components/PageHeading';
import { MODULES } from '../modules';

/** Supply chain network optimization (spec §1: version 0.1.0, depends on demand planning; content not shown). */
export default function OptichainPage() {
  const { optimization } = MODULES;
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={t(optimization.nameKey)}
        subtitle={t('shell:optimization.subtitle')}
        badges={<Badge variant="outline">{`v${optimization.version}`}</Badge>}
      />
      <PlaceholderPanel
        title={t('shell:optimization.runsTitle')}
        description={t('shell:optimization.runsDescription')}
        icon={NetworkIcon}
        message={t('shell:optimization.noRuns')}
      />
    </div>
  );
}
