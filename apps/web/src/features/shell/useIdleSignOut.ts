import { useEffect } from 'react';
import { useAuth } from '@/features/auth';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { startIdleTimer } from './utils/idle-timer';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * User setting sessionTimeout (spec §3, 30/60/120/240 minutes): a signed-in user who does nothing
 * in the app for that long is signed out, as 'Sign Out' does.
 */
export function useIdleSignOut(): void {
  const { sessionTimeout } = useUserSettings().settings;
  const { isAuthenticated, signOut } = useAuth();
  useEffect(() => {
    if (!isAuthenticated) return;
    const timer = startIdleTimer(Number(sessionTimeout) * 60_000, signOut);
    const options = { capture: true, passive: true } as const;
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, timer.activity, options);
    return () => {
      timer.stop();
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, timer.activity, options);
    };
  }, [sessionTimeout, isAuthenticated, signOut]);
}
