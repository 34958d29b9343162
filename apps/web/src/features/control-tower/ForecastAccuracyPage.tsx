import { AlertTriangleIcon, CrosshairIcon, LineChartIcon, PercentIcon, ScaleIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: Forecast Accuracy Metrics (spec §2). */
export default function ForecastAccuracyPage() {
  const { t } = useTranslation();
  return (
    <MetricsScreen
      title={t('controlTower:accuracy.title')}
      subtitle={t('controlTower:accuracy.subtitle')}
      metrics={[
        { title: t('controlTower:accuracy.overall'), icon: CrosshairIcon },
        {
          title: t('controlTower:accuracy.mape'),
          icon: PercentIcon,
          note: t('controlTower:accuracy.mapeNote'),
        },
        {
          title: t('controlTower:accuracy.bias'),
          icon: ScaleIcon,
          note: t('controlTower:accuracy.biasNote'),
        },
        { title: t('controlTower:accuracy.alerts'), icon: AlertTriangleIcon },
      ]}
      panel={{
        title: t('controlTower:accuracy.trendTitle'),
        description: t('controlTower:accuracy.trendDescription'),
        icon: LineChartIcon,
        message: t('controlTower:accuracy.trendMessage'),
      }}
    />
  );
}
