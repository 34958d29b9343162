import { notificationEndpoints, type NotificationList } from '@ps/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/features/auth';
import { hasKnownGroup } from '@/features/auth';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { callEndpoint } from '@/lib/api-client';
import { useFirstScreenShown } from '@/lib/first-screen';

export const NOTIFICATIONS_KEY = ['notifications'] as const;

/**
 * The caller's notifications, refreshed at the user's data refresh interval; first asked for once
 * the screen has shown its content (lib/first-screen.ts).
 */
export function useNotifications(): NotificationList | undefined {
  const { isAuthenticated, user } = useAuth();
  const { dataRefreshInterval } = useUserSettings().settings;
  const isScreenShown = useFirstScreenShown();
  const { data } = useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: () => callEndpoint(notificationEndpoints.list, { parse: true }),
    enabled: isAuthenticated && hasKnownGroup(user) && isScreenShown,
    refetchInterval: Number(dataRefreshInterval) * 1000,
    staleTime: 0,
  });
  return data;
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => callEndpoint(notificationEndpoints.markRead, { body: { ids } }),
    onSuccess: (list) => queryClient.setQueryData(NOTIFICATIONS_KEY, list),
  });
}
