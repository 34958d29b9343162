import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BrandLogo, isCustomerBrandedPath } from '@/components/BrandLogo';
import { HelpButton } from './HelpButton';
import { UserMenu } from './UserMenu';
import { NotificationBell } from '@/features/notifications';

/** Top bar of signed-in screens: sub-product names (or the customer's logo on its pages), help, user menu. */
export function AppHeader() {
  const { pathname } = useLocation();
  const isCustomer = isCustomerBrandedPath(pathname);
  const { t } = useTranslation();
  return (
    <header className="flex h-16 shrink-0 items-center justify-between gap-4 border-b border-border bg-card px-6">
      <div className="flex min-w-0 items-center gap-4">
        {isCustomer && <BrandLogo isCustomer />}
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
          <span className="font-semibold">{t('shell:header.demandPlanning')}</span>
          <span className="text-muted-foreground" aria-hidden>
            |
          </span>
          <Link
            to="/inventory-planning"
            className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
          >
            {t('shell:header.inventoryOverride')}
          </Link>
        </p>
      </div>
      <div className="flex items-center gap-2">
        <HelpButton />
        <NotificationBell />
        <UserMenu />
      </div>
    </header>
  );
}
