/** What the planning-policy feature offers the rest of the app; its other files are its own. */
export { usePlanningPolicy, useSavePlanningPolicy } from './usePlanningPolicy';
