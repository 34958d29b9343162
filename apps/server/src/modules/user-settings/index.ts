import type { ServerModule } from '../../lib/server-module';
import { registerUserSettingsRoutes } from './user-settings.routes';
import { UserSettingsService } from './user-settings.service';

export const userSettingsModule: ServerModule = {
  name: 'user-settings',
  register: (app, { database }) => registerUserSettingsRoutes(app, new UserSettingsService(database.db)),
};
