/** What the notifications feature offers the rest of the app; its other files are its own. */
export { NotificationBell } from './NotificationBell';
export { useNotifications } from './notifications-api';
