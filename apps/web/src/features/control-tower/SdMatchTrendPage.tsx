import {
  ActivityIcon,
  GaugeIcon,
  GitCompareArrowsIcon,
  LineChartIcon,
  TrendingUpDownIcon,
} from 'lucide-react';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: S&D Match Trend (spec §2). */
export default function SdMatchTrendPage() {
  return (
    <MetricsScreen
      title="S&D Match Trend"
      subtitle="How well supply has matched demand over recent cycles"
      metrics={[
        { title: 'Match Rate', icon: GitCompareArrowsIcon },
        { title: 'Supply Variance', icon: ActivityIcon },
        { title: 'Demand Volatility', icon: TrendingUpDownIcon },
        { title: 'Optimization Score', icon: GaugeIcon },
      ]}
      panel={{
        title: 'Supply vs Demand',
        description: 'Planned supply against final demand plan by period',
        icon: LineChartIcon,
        message: 'The trend appears here once supply plans are available to compare with the demand plan.',
      }}
    />
  );
}
