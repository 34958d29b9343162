import {
  ChevronDownIcon,
  ChevronsLeftIcon,
  ChevronsRightIcon,
  SettingsIcon,
  UserIcon,
  type LucideIcon,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { homePathFor, useAuth } from '@/features/auth';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { cn } from '@/lib/cn';
import { isNavChildActive, isNavItemActive, visibleNavItems, type NavGroup } from '../nav-items';
import { BrandLogo, isCustomerBrandedPath } from '@/components/BrandLogo';
import { ComingSoonDialog } from './ComingSoonDialog';

const itemClass = (isActive: boolean, isCollapsed: boolean) =>
  cn(
    'flex min-h-10 w-full items-center gap-3 rounded-md px-3 py-1.5 text-sm font-medium outline-none transition-colors',
    'hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring',
    isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
    isCollapsed && 'justify-center px-0',
  );

/** In the narrow form, labels move into a tooltip; the accessible name stays on the control. */
function WithTooltip({
  label,
  isCollapsed,
  children,
}: {
  label: string;
  isCollapsed: boolean;
  children: ReactNode;
}) {
  if (!isCollapsed) return children;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}

function ItemContent({
  icon: Icon,
  label,
  isCollapsed,
  extra,
}: {
  icon: LucideIcon;
  label: string;
  isCollapsed: boolean;
  extra?: ReactNode;
}) {
  return (
    <>
      <Icon className="size-5 shrink-0" aria-hidden />
      {!isCollapsed && (
        <span className="flex min-w-0 flex-1 flex-col items-start gap-0.5">
          <span className="max-w-full text-left break-words">{label}</span>
          {extra}
        </span>
      )}
    </>
  );
}

function ControlTowerGroup({
  item,
  isCollapsed,
  pathname,
}: {
  item: NavGroup;
  isCollapsed: boolean;
  pathname: string;
}) {
  const { t } = useTranslation();
  const label = t(item.labelKey);
  const isActive = isNavItemActive(item, pathname);
  const [isExpanded, setIsExpanded] = useState(isActive);
  const childListId = 'sidebar-control-tower-children';
  return (
    <li>
      {isCollapsed ? (
        <WithTooltip label={label} isCollapsed={isCollapsed}>
          <Link
            to={item.to}
            className={itemClass(isActive, isCollapsed)}
            aria-current={pathname === item.to ? 'page' : undefined}
            aria-label={label}
          >
            <ItemContent icon={item.icon} label={label} isCollapsed={isCollapsed} />
          </Link>
        </WithTooltip>
      ) : (
        <button
          type="button"
          className={itemClass(isActive, isCollapsed)}
          aria-expanded={isExpanded}
          aria-controls={childListId}
          aria-label={t(isExpanded ? 'shell:sidebar.collapseGroup' : 'shell:sidebar.expandGroup', {
            label,
          })}
          onClick={() => setIsExpanded((v) => !v)}
        >
          <ItemContent icon={item.icon} label={label} isCollapsed={isCollapsed} />
          <ChevronDownIcon
            className={cn('size-4 shrink-0 transition-transform', isExpanded && 'rotate-180')}
            aria-hidden
          />
        </button>
      )}
      {!isCollapsed && isExpanded && (
        <ul id={childListId} className="mt-1 ml-6 flex flex-col gap-1 border-l border-border pl-3">
          {item.children.map((child) => {
            const isChildActive = isNavChildActive(child.to, pathname);
            return (
              <li key={child.to}>
                <Link
                  to={child.to}
                  aria-current={isChildActive ? 'page' : undefined}
                  className={cn(
                    'block rounded-md px-3 py-1.5 text-sm outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring',
                    isChildActive ? 'bg-accent font-medium text-accent-foreground' : 'text-muted-foreground',
                  )}
                >
                  {t(child.labelKey)}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

/** Wide (w-64) or narrow (w-16) navigation; the choice is kept in ui-preferences. */
export function Sidebar() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const { isSidebarCollapsed: isCollapsed, setSidebarCollapsed, openSettingsDialog } = useUserSettings();
  const { t } = useTranslation();
  const [isComingSoonOpen, setIsComingSoonOpen] = useState(false);
  const items = visibleNavItems(user?.groups ?? []);
  const homePath = homePathFor(user?.groups ?? []);

  return (
    <aside
      className={cn(
        'flex h-full shrink-0 flex-col border-r border-border bg-card text-card-foreground transition-[width] duration-200',
        isCollapsed ? 'w-16' : 'w-64',
      )}
      data-testid="sidebar"
      data-collapsed={isCollapsed}
    >
      <div
        className={cn(
          'flex h-16 items-center border-b border-border px-3',
          isCollapsed ? 'justify-center' : 'justify-between',
        )}
      >
        <Link
          to={homePath}
          className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={t('shell:sidebar.home')}
        >
          <BrandLogo isCustomer={isCustomerBrandedPath(pathname)} isCompact={isCollapsed} />
        </Link>
      </div>

      <nav aria-label={t('shell:sidebar.main')} className="flex-1 overflow-y-auto p-2">
        <ul className="flex flex-col gap-1">
          {items.map((item) => {
            switch (item.kind) {
              case 'group':
                return (
                  <ControlTowerGroup
                    key={item.to}
                    item={item}
                    isCollapsed={isCollapsed}
                    pathname={pathname}
                  />
                );
              case 'coming-soon':
                return (
                  <li key={item.to}>
                    <WithTooltip
                      label={t('shell:sidebar.comingSoonItem', { label: t(item.labelKey) })}
                      isCollapsed={isCollapsed}
                    >
                      <button
                        type="button"
                        className={cn(
                          itemClass(isNavItemActive(item, pathname), isCollapsed),
                          !isCollapsed && 'h-auto min-h-10 py-1.5',
                        )}
                        aria-label={
                          isCollapsed
                            ? t('shell:sidebar.comingSoonItem', { label: t(item.labelKey) })
                            : undefined
                        }
                        onClick={() => setIsComingSoonOpen(true)}
                      >
                        <ItemContent
                          icon={item.icon}
                          label={t(item.labelKey)}
                          isCollapsed={isCollapsed}
                          extra={
                            <Badge variant="warning" className="px-1.5 text-[10px] leading-4">
                              {t('shell:comingSoon.badge')}
                            </Badge>
                          }
                        />
                      </button>
                    </WithTooltip>
                  </li>
                );
              case 'link': {
                const isActive = isNavItemActive(item, pathname);
                return (
                  <li key={item.to}>
                    <WithTooltip label={t(item.labelKey)} isCollapsed={isCollapsed}>
                      <Link
                        to={item.to}
                        className={itemClass(isActive, isCollapsed)}
                        aria-current={isActive ? 'page' : undefined}
                        aria-label={isCollapsed ? t(item.labelKey) : undefined}
                      >
                        <ItemContent icon={item.icon} label={t(item.labelKey)} isCollapsed={isCollapsed} />
                      </Link>
                    </WithTooltip>
                  </li>
                );
              }
            }
          })}
        </ul>
      </nav>

      <div className="flex flex-col gap-1 border-t border-border p-2">
        <WithTooltip label={t('shell:sidebar.settings')} isCollapsed={isCollapsed}>
          <button
            type="button"
            className={itemClass(false, isCollapsed)}
            aria-label={isCollapsed ? t('shell:sidebar.settings') : undefined}
            onClick={() => openSettingsDialog()}
          >
            <ItemContent icon={SettingsIcon} label={t('shell:sidebar.settings')} isCollapsed={isCollapsed} />
          </button>
        </WithTooltip>
        <WithTooltip label={t('shell:sidebar.profile')} isCollapsed={isCollapsed}>
          <button
            type="button"
            className={itemClass(pathname === '/profile', isCollapsed)}
            aria-label={isCollapsed ? t('shell:sidebar.profile') : undefined}
            aria-current={pathname === '/profile' ? 'page' : undefined}
            onClick={() => void navigate('/profile')}
          >
            <ItemContent icon={UserIcon} label={t('shell:sidebar.profile')} isCollapsed={isCollapsed} />
          </button>
        </WithTooltip>
        <WithTooltip label={t('shell:sidebar.expand')} isCollapsed={isCollapsed}>
          <button
            type="button"
            className={itemClass(false, isCollapsed)}
            aria-label={t(isCollapsed ? 'shell:sidebar.expand' : 'shell:sidebar.collapse')}
            onClick={() => setSidebarCollapsed(!isCollapsed)}
          >
            <ItemContent
              icon={isCollapsed ? ChevronsRightIcon : ChevronsLeftIcon}
              label={t('shell:sidebar.collapseShort')}
              isCollapsed={isCollapsed}
            />
          </button>
        </WithTooltip>
      </div>

      <ComingSoonDialog isOpen={isComingSoonOpen} onOpenChange={setIsComingSoonOpen} />
    </aside>
  );
}
