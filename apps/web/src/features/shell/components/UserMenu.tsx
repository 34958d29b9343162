import { LogOutIcon, SettingsIcon } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { roleText, useAuth } from '@/features/auth';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { initialsOf } from '../utils/initials';

/**
 * Avatar with initials opening the user's menu: name, email, role, organisation, Settings &
 * Preferences and Sign Out. Pages with their own header (demand planning) render it there.
 */
export function UserMenu() {
  const { user, signOut } = useAuth();
  const { openSettingsDialog } = useUserSettings();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const { t } = useTranslation();
  if (!user) return null;
  const initials = initialsOf(user.name);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        ref={triggerRef}
        className="flex items-center gap-2 rounded-full p-0.5 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring md:rounded-md md:pr-2"
        aria-label={t('shell:userMenu.label', { name: user.name })}
        data-testid="user-menu-trigger"
      >
        <span
          className="flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          aria-hidden
        >
          {initials}
        </span>
        <span className="hidden max-w-40 truncate text-sm font-medium md:inline">{user.name}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72">
        <DropdownMenuLabel className="flex flex-col gap-1 font-normal">
          <span className="truncate text-sm font-semibold">{user.name}</span>
          {user.email && <span className="truncate text-xs text-muted-foreground">{user.email}</span>}
          <span className="mt-1 flex flex-wrap items-center gap-2">
            <Badge variant="secondary">{roleText(user.role)}</Badge>
            <span className="text-xs text-muted-foreground">{t('shell:organisation')}</span>
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => openSettingsDialog({ returnFocusTo: triggerRef.current })}>
          <SettingsIcon aria-hidden />
          <span className="flex flex-col">
            <span>{t('settings:title')}</span>
            <span className="text-xs text-muted-foreground">{t('settings:menuHint')}</span>
          </span>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => void signOut()}>
          <LogOutIcon aria-hidden />
          {t('shell:userMenu.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
