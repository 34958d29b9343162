/** What the forecast-runs feature offers the rest of the app; its other files are its own. */
export { ForecastRunControl } from './ForecastRunControl';
