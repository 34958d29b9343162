import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

type FeatureCardProps = { icon: LucideIcon; title: string; description: string; points: readonly string[] };

export function FeatureCard({ icon: Icon, title, description, points }: FeatureCardProps) {
  return (
    <Card className="h-full transition-shadow hover:shadow-md">
      <CardHeader>
        <span className="mb-2 flex size-11 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <Icon className="size-6" aria-hidden />
        </span>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-1.5 text-sm text-muted-foreground">
          {points.map((point) => (
            <li key={point} className="flex gap-2">
              <span className="mt-2 size-1.5 shrink-0 rounded-full bg-primary" aria-hidden />
              {point}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
