import { BoxesIcon, PackageXIcon, RefreshCcwIcon, ShieldCheckIcon, WarehouseIcon } from 'lucide-react';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: Inventory Metrics (spec §2). */
export default function InventoryMetricsPage() {
  return (
    <MetricsScreen
      title="Inventory Metrics"
      subtitle="Inventory value, turnover and service across sites"
      metrics={[
        { title: 'Total Inventory Value', icon: WarehouseIcon },
        { title: 'Inventory Turnover', icon: RefreshCcwIcon },
        { title: 'Stockouts', icon: PackageXIcon },
        { title: 'Service Level', icon: ShieldCheckIcon, note: 'Target 95%' },
      ]}
      panel={{
        title: 'Inventory Position',
        description: 'On-hand inventory against target order-up-to levels',
        icon: BoxesIcon,
        message: 'Inventory figures appear here once on-hand and target levels are loaded for the sites.',
      }}
    />
  );
}
