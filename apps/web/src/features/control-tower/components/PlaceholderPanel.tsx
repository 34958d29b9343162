import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

type PlaceholderPanelProps = { title: string; description: string; icon: LucideIcon; message: string };

/** The chart/detail area of a control tower screen while it has no data to draw. */
export function PlaceholderPanel({ title, description, icon: Icon, message }: PlaceholderPanelProps) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex h-72 flex-col items-center justify-center gap-3 rounded-md border border-dashed border-border bg-muted/40 text-center">
          <Icon className="size-10 text-muted-foreground" aria-hidden />
          <p className="font-medium">{t('common:noData')}</p>
          <p className="max-w-md text-sm text-muted-foreground">{message}</p>
        </div>
      </CardContent>
    </Card>
  );
}
