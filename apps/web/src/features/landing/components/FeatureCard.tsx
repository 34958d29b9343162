import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

type FeatureCardProps = {
  icon: LucideIcon;
  titleKey: string;
  descriptionKey: string;
  pointKeys: readonly string[];
};

export function FeatureCard({ icon: Icon, titleKey, descriptionKey, pointKeys }: FeatureCardProps) {
  const { t } = useTranslation();
  return (
    <Card className="h-full transition-shadow hover:shadow-md">
      <CardHeader>
        <span className="mb-2 flex size-11 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <Icon className="size-6" aria-hidden />
        </span>
        <CardTitle>{t(titleKey)}</CardTitle>
        <CardDescription>{t(descriptionKey)}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-1.5 text-sm text-muted-foreground">
          {pointKeys.map((key) => (
            <li key={key} className="flex gap-2">
              <span className="mt-2 size-1.5 shrink-0 rounded-full bg-primary" aria-hidden />
              {t(key)}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
