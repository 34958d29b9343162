/** What the server-clock feature offers the rest of the app; its other files are its own. */
export { useServerToday } from './useServerToday';
