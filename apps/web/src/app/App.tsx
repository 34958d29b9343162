import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { AuthProvider } from '@/features/auth';
import { UserSettingsProvider } from '@/features/settings/UserSettingsProvider';
import { router } from './routes';

/** Spec §7: queries and mutations never retry, data never goes stale, no refetch on focus. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider navigate={(path) => void router.navigate(path)}>
        <UserSettingsProvider>
          <TooltipProvider delayDuration={300}>
            <RouterProvider router={router} />
            <Toaster />
          </TooltipProvider>
        </UserSettingsProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
