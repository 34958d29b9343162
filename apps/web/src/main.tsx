import { startScreenDownload } from './app/screens';
import { requestAuthConfig } from './features/auth/utils/auth-config-request';

/*
 * The entry is small on purpose: it asks at once for everything the first screen needs, the app's
 * code, the screen's code and the sign-in settings, so they load side by side instead of each
 * waiting for the one before it to arrive and run (issue 15, Must 8).
 */
void import('./app/start');
startScreenDownload(window.location.pathname);
requestAuthConfig();
