import type { ReactNode } from 'react';

type PageHeadingProps = { title: string; subtitle?: string; badges?: ReactNode; actions?: ReactNode };

/** Title block at the top of a screen inside the AppLayout. */
export function PageHeading({ title, subtitle, badges, actions }: PageHeadingProps) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {badges}
        </div>
        {subtitle && <p className="text-muted-foreground">{subtitle}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
