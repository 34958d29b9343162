import {
  ActivityIcon,
  GaugeIcon,
  GitCompareArrowsIcon,
  LineChartIcon,
  TrendingUpDownIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: S&D Match Trend (spec §2). */
export default function SdMatchTrendPage() {
  const { t } = useTranslation();
  return (
    <MetricsScreen
      title={t('controlTower:sdMatch.title')}
      subtitle={t('controlTower:sdMatch.subtitle')}
      metrics={[
        { title: t('controlTower:sdMatch.matchRate'), icon: GitCompareArrowsIcon },
        { title: t('controlTower:sdMatch.supplyVariance'), icon: ActivityIcon },
        { title: t('controlTower:sdMatch.demandVolatility'), icon: TrendingUpDownIcon },
        { title: t('controlTower:sdMatch.optimizationScore'), icon: GaugeIcon },
      ]}
      panel={{
        title: t('controlTower:sdMatch.chartTitle'),
        description: t('controlTower:sdMatch.chartDescription'),
        icon: LineChartIcon,
        message: t('controlTower:sdMatch.chartMessage'),
      }}
    />
  );
}
