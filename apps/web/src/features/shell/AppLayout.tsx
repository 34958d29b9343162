import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { AiAssistant } from '@/features/ai-assistant';
import { SettingsDialog } from '@/features/settings';
import { markFirstScreenShown, whenIdle } from '@/lib/first-screen';
import { AppHeader } from './components/AppHeader';
import { Sidebar } from './components/Sidebar';
import { hasOwnHeader, marksFirstScreen } from './route-handle';
import { useIdleSignOut } from './useIdleSignOut';

/**
 * Frame of every signed-in screen: sidebar, header and the page in <main>. Used as a layout route
 * in app/routes.tsx, so pages render through <Outlet/>. A page with its own header sets
 * `handle: { hasOwnHeader: true }` on its route (see route-handle.ts) and can render
 * <UserMenu/> (components/UserMenu) and useUserSettings().openSettingsDialog itself.
 * The one settings dialog lives here; anything inside may open it.
 */
export default function AppLayout() {
  const matches = useMatches();
  const isHeaderShown = !matches.some((match) => hasOwnHeader(match.handle));
  // The first screen's deferred work (lib/first-screen.ts) starts once a page that does not say
  // so itself has rendered and the browser is idle.
  const isMarkedByPage = matches.some((match) => marksFirstScreen(match.handle));
  useEffect(() => {
    if (!isMarkedByPage) return whenIdle(markFirstScreenShown);
  }, [isMarkedByPage]);
  const { t } = useTranslation();
  useIdleSignOut();
  return (
    <div className="flex h-screen overflow-hidden bg-background text-foreground">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        {t('shell:skipToContent')}
      </a>
      <Sidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        {isHeaderShown && <AppHeader />}
        <main id="main-content" tabIndex={-1} className="flex-1 overflow-auto outline-none">
          <Outlet />
        </main>
      </div>
      <AiAssistant />
      <SettingsDialog />
    </div>
  );
}
