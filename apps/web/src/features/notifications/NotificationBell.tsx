import type { NotificationKind, NotificationList } from '@ps/domain';
import { BellIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';
import { useMarkNotificationsRead, useNotifications } from './notifications-api';

type Item = NotificationList['items'][number];

const KIND_TEXT: Record<NotificationKind, string> = {
  'forecast-run-succeeded': 'notifications:kind.forecastRunSucceeded',
  'forecast-run-failed': 'notifications:kind.forecastRunFailed',
  'import-finished': 'notifications:kind.importFinished',
  'plan-cycle-published': 'notifications:kind.planCyclePublished',
  'override-changed': 'notifications:kind.overrideChanged',
  'exceptions-found': 'notifications:kind.exceptionsFound',
  'cycle-finished': 'notifications:kind.cycleFinished',
  'cycle-failed': 'notifications:kind.cycleFailed',
};

function NotificationText({ item }: { item: Item }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const values = Object.fromEntries(
    Object.entries(item.content).map(([key, value]) => [
      key,
      // Figures read grouped in the user's number format; identifiers stay as they are, and the
      // count stays a number so the catalogue can choose its plural form.
      typeof value === 'number' && !key.endsWith('Id') && key !== 'count' ? format.number(value) : value,
    ]),
  );
  return <>{t(KIND_TEXT[item.kind], values)}</>;
}

/** The header's notification centre: unread count, latest notifications, mail status. */
export function NotificationBell() {
  const { t } = useTranslation();
  const format = useFormatters();
  const list = useNotifications();
  const markRead = useMarkNotificationsRead();
  // What was unread when the panel opened stays highlighted while it is open.
  const [unreadAtOpen, setUnreadAtOpen] = useState<ReadonlySet<number>>(new Set());
  const unread = list?.unreadCount ?? 0;

  const onOpenChange = (isOpen: boolean) => {
    if (!isOpen || !list) return;
    setUnreadAtOpen(new Set(list.items.filter((item) => !item.read).map((item) => item.id)));
    if (unread > 0) markRead.mutate(undefined);
  };

  return (
    <Popover onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={t('notifications:bell', { count: unread })}
          data-testid="notification-bell"
        >
          <BellIcon className="size-5" aria-hidden />
          {unread > 0 && (
            <span
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-semibold text-white"
              data-testid="notification-count"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <h2 className="border-b border-border px-4 py-3 text-sm font-semibold">{t('notifications:title')}</h2>
        {list && list.items.length > 0 ? (
          <ul className="max-h-96 overflow-y-auto" aria-label={t('notifications:title')}>
            {list.items.map((item) => (
              <li
                key={item.id}
                className={cn(
                  'border-b border-border px-4 py-2 text-sm last:border-b-0',
                  unreadAtOpen.has(item.id) && 'bg-accent/60',
                )}
              >
                <p>
                  <NotificationText item={item} />
                </p>
                <p className="mt-0.5 text-xs text-muted-foreground">{format.dateTime(item.timestamp)}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-4 py-6 text-center text-sm text-muted-foreground">{t('notifications:empty')}</p>
        )}
        {list && !list.emailAvailable && (
          <p className="border-t border-border px-4 py-2 text-xs text-muted-foreground">
            {t('notifications:inAppOnly')}
          </p>
        )}
      </PopoverContent>
    </Popover>
  );
}
