/** What the errors feature offers the rest of the app; its other files are its own. */
export { RouteErrorScreen } from './RouteErrorScreen';
