import { BoxesIcon, PackageXIcon, RefreshCcwIcon, ShieldCheckIcon, WarehouseIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: Inventory Metrics (spec §2). */
export default function InventoryMetricsPage() {
  const { t } = useTranslation();
  return (
    <MetricsScreen
      title={t('controlTower:inventory.title')}
      subtitle={t('controlTower:inventory.subtitle')}
      metrics={[
        { title: t('controlTower:inventory.totalValue'), icon: WarehouseIcon },
        { title: t('controlTower:inventory.turnover'), icon: RefreshCcwIcon },
        { title: t('controlTower:inventory.stockouts'), icon: PackageXIcon },
        {
          title: t('controlTower:inventory.serviceLevel'),
          icon: ShieldCheckIcon,
          note: t('controlTower:inventory.serviceTarget'),
        },
      ]}
      panel={{
        title: t('controlTower:inventory.positionTitle'),
        description: t('controlTower:inventory.positionDescription'),
        icon: BoxesIcon,
        message: t('controlTower:inventory.positionMessage'),
      }}
    />
  );
}
