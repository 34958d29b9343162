/** What the control-tower feature offers the rest of the app; its other files are its own. */
export { controlTowerKeys, fetchControlTowerHome } from './api/control-tower.api';
