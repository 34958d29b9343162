import { startScreenDownload } from './app/screens';
import { requestAuthConfig } from '@/lib/auth/auth-config-request';

/*
 * The entry is small on purpose: it asks at once for everything the first screen needs, the
 * sign-in settings (a small answer, first so it does not queue behind the code), the app's code and
 * the screen's code, so they load side by side instead of each waiting for the one before it to
 * arrive and run.
 */
requestAuthConfig();
void import('./app/start');
startScreenDownload(window.location.pathname);
