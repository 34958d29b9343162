import { clockEndpoints, type ServerClock } from '@ps/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/features/auth';
import { callEndpoint } from '@/lib/api-client';

export const SERVER_CLOCK_KEY = ['server-clock'] as const;

export const serverClockQuery = () =>
  queryOptions({
    queryKey: SERVER_CLOCK_KEY,
    queryFn: () => callEndpoint(clockEndpoints.clock, { parse: true }),
    // The day changes once a day; a minute is soon enough to see it turn.
    staleTime: 60_000,
  });

/**
 * The server's today (yyyy-mm-dd, UTC) and current week: screens take "today" from the server,
 * so the current week, month and year agree with the figures it answers (CLOCK_TODAY included).
 * Until it is loaded, or signed out, the browser's own date stands in.
 */
export function useServerToday(): {
  today: string;
  currentWeek: string | null;
  clock: ServerClock | undefined;
} {
  const { isAuthenticated } = useAuth();
  const { data } = useQuery({ ...serverClockQuery(), enabled: isAuthenticated });
  return {
    today: data?.today ?? new Date().toISOString().slice(0, 10),
    currentWeek: data?.currentWeek ?? null,
    clock: data,
  };
}
