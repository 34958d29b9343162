import { AlertTriangleIcon, CrosshairIcon, LineChartIcon, PercentIcon, ScaleIcon } from 'lucide-react';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: Forecast Accuracy Metrics (spec §2). */
export default function ForecastAccuracyPage() {
  return (
    <MetricsScreen
      title="Forecast Accuracy Metrics"
      subtitle="How close the published forecasts came to actual bookings"
      metrics={[
        { title: 'Overall Accuracy', icon: CrosshairIcon },
        { title: 'MAPE', icon: PercentIcon, note: 'Mean absolute percentage error' },
        { title: 'Bias', icon: ScaleIcon, note: 'Over- or under-forecasting tendency' },
        { title: 'Alerts', icon: AlertTriangleIcon },
      ]}
      panel={{
        title: 'Forecast Accuracy Trend',
        description: 'Accuracy by week and product family',
        icon: LineChartIcon,
        message: 'Accuracy figures appear here once forecasts have been compared with actual bookings.',
      }}
    />
  );
}
