import { cycleEndpoints, type CycleOverview, type CycleSchedule } from '@ps/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';

export const CYCLE_KEY = ['cycle'] as const;
/** While a run is going its log is read this often. */
const POLL_MS = 1000;

const isRunning = (overview: CycleOverview | undefined) =>
  overview?.runs.some((run) => run.status === 'running') ?? false;

/** The cycle's schedule, feed and latest runs; polled while a run is going, so its log moves. */
export function useCycleOverview() {
  return useQuery({
    queryKey: CYCLE_KEY,
    queryFn: () => callEndpoint(cycleEndpoints.overview, { parse: true }),
    refetchInterval: (query) => (isRunning(query.state.data) ? POLL_MS : false),
  });
}

/** Saving the schedule, Run now and a rerun; each refreshes the overview. */
export function useCycleActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: CYCLE_KEY });
  const saveSchedule = useMutation({
    mutationFn: (schedule: CycleSchedule) => callEndpoint(cycleEndpoints.saveSchedule, { body: schedule }),
    onSuccess: (overview) => queryClient.setQueryData(CYCLE_KEY, overview),
  });
  const runNow = useMutation({ mutationFn: () => callEndpoint(cycleEndpoints.runNow), onSuccess: refresh });
  const rerun = useMutation({
    mutationFn: (id: number) => callEndpoint(cycleEndpoints.rerun, { params: { id: String(id) } }),
    onSuccess: refresh,
  });
  return { saveSchedule, runNow, rerun };
}
