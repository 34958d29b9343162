import type { ReactNode } from 'react';

type ProtectedRouteProps = { children: ReactNode; allowedGroups?: string[] | undefined };

/** Placeholder until the sign-in issue: renders the screen. The sign-in issue adds the checks of spec §2. */
export function ProtectedRoute({ children }: ProtectedRouteProps) {
  return <>{children}</>;
}
