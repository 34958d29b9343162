import { planningPolicyEndpoints, type PlanningPolicy } from '@ps/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/features/auth';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import { callEndpoint } from '@/lib/api-client';
import { useFirstScreenShown } from '@/lib/first-screen';

const PLANNING_POLICY_KEY = ['planning-policy'] as const;

/**
 * The policy an admin sets for every planner; until it is loaded nothing is required (the server
 * enforces it on save). First asked for once the screen has shown its content (lib/first-screen.ts).
 */
export function usePlanningPolicy(): PlanningPolicy {
  const { isAuthenticated } = useAuth();
  const isScreenShown = useFirstScreenShown();
  const { data } = useQuery({
    queryKey: PLANNING_POLICY_KEY,
    queryFn: () => callEndpoint(planningPolicyEndpoints.read, { parse: true }),
    enabled: isAuthenticated && isScreenShown,
    staleTime: 60_000,
  });
  return data ?? { requireOverrideReason: false };
}

/**
 * An admin sets the policy; every screen that reads it follows at once. A refusal is said here,
 * not by the caller: the settings dialog closes on Save, and a caller's own callbacks do not run
 * once it has unmounted.
 */
export function useSavePlanningPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: PlanningPolicy) => callEndpoint(planningPolicyEndpoints.save, { body: policy }),
    onSuccess: (saved) => queryClient.setQueryData(PLANNING_POLICY_KEY, saved),
    onError: (error) =>
      toast({
        title: i18next.t('settings:policy.saveFailed'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });
}
