import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { AuthProvider } from '@/features/auth';
import { UserSettingsProvider } from '@/lib/settings/UserSettingsProvider';
import { queryClient } from './query-client';
import { router } from './routes';

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
