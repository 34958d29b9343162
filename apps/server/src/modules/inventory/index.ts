import type { ServerModule } from '../../lib/server-module';
import { registerInventoryRoutes } from './inventory.routes';
import { InventoryService } from './inventory.service';

export { rebuildHistoryTotals as rebuildInventoryHistoryTotals } from './inventory.repository';
export { recomputeInventory, recomputeInventoryAfterForecast } from './inventory.service';

export const inventoryModule: ServerModule = {
  name: 'inventory',
  register: (app, { database }) => registerInventoryRoutes(app, new InventoryService(database.db)),
};
