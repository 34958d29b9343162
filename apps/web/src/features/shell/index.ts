/** What the shell feature offers the rest of the app; its other files are its own. */
export { UserMenu } from './components/UserMenu';
export { MODULES } from './modules';
export { type AppRouteHandle } from './route-handle';
export { initialsOf } from './utils/initials';
