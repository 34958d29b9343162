import { NetworkIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { PlaceholderPanel } from '@/features/control-tower/components/PlaceholderPanel';
import { PageHeading } from '../components/PageHeading';
import { MODULES } from '../modules';

/** Supply chain network optimization (spec §1: version 0.1.0, depends on demand planning; content not shown). */
export default function OptichainPage() {
  const { optimization } = MODULES;
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={optimization.name}
        subtitle="Plan sourcing, production and distribution across the network from the final demand plan."
        badges={<Badge variant="outline">{`v${optimization.version}`}</Badge>}
      />
      <PlaceholderPanel
        title="Optimization Runs"
        description="Network scenarios solved against the published demand plan"
        icon={NetworkIcon}
        message="No optimization runs yet. Runs use the published demand plan, so publish a plan cycle first."
      />
    </div>
  );
}
