import { useTranslation } from 'react-i18next';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { GridLayout } from '../utils/grid-url';

type GridLayoutSwitchProps = {
  layout: GridLayout;
  onLayoutChange: (layout: GridLayout) => void;
  isDisabled: boolean;
};

/** The grid's View: the tables (original records or roll-ups) or the time-phased plan. */
export function GridLayoutSwitch({ layout, onLayoutChange, isDisabled }: GridLayoutSwitchProps) {
  const { t } = useTranslation();
  return (
    <Tabs value={layout} onValueChange={(value) => onLayoutChange(value as GridLayout)}>
      <TabsList aria-label={t('timePhased:layout.label')}>
        <TabsTrigger value="table" disabled={isDisabled}>
          {t('timePhased:layout.table')}
        </TabsTrigger>
        <TabsTrigger value="time-phased" disabled={isDisabled}>
          {t('timePhased:layout.timePhased')}
        </TabsTrigger>
      </TabsList>
    </Tabs>
  );
}
