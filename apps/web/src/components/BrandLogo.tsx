import { BoxesIcon } from 'lucide-react';
import { cn } from '@/lib/cn';

/** Paths of the customer with its own branding (spec §1). */
export function isCustomerBrandedPath(pathname: string): boolean {
  return pathname === '/circor' || pathname.startsWith('/circor/');
}

type BrandLogoProps = { isCustomer: boolean; isCompact?: boolean; className?: string };

/** The product logo, or the customer's logo on the customer's own pages. */
export function BrandLogo({ isCustomer, isCompact = false, className }: BrandLogoProps) {
  if (isCustomer) {
    return (
      <span className={cn('flex items-center gap-2', className)} data-testid="brand-logo" data-brand="circor">
        <svg viewBox="0 0 32 32" className="size-8 shrink-0" role="img" aria-label="CIRCOR">
          <rect width="32" height="32" rx="6" className="fill-red-700" />
          <circle
            cx="16"
            cy="16"
            r="9"
            fill="none"
            stroke="white"
            strokeWidth="3.5"
            strokeDasharray="44 13"
          />
        </svg>
        {!isCompact && (
          <span className="text-lg font-extrabold tracking-[0.2em] text-red-700 dark:text-red-400">
            CIRCOR
          </span>
        )}
      </span>
    );
  }
  return (
    <span
      className={cn('flex items-center gap-2', className)}
      data-testid="brand-logo"
      data-brand="planning-suite"
    >
      <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <BoxesIcon className="size-5" aria-hidden />
      </span>
      {isCompact ? (
        <span className="sr-only">Planning Suite</span>
      ) : (
        <span className="text-base leading-tight font-bold">Planning Suite</span>
      )}
    </span>
  );
}
