/** What the inventory feature offers the rest of the app; its other files are its own. */
export { TrendChart } from './components/TrendChart';
export { fetchInventoryMetrics, fetchSdMatch, inventoryKeys } from './inventory-api';
