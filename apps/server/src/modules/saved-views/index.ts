import type { ServerModule } from '../../lib/server-module';
import { SavedViewsRepository } from './saved-views.repository';
import { registerSavedViewRoutes } from './saved-views.routes';
import { SavedViewsService } from './saved-views.service';

export const savedViewsModule: ServerModule = {
  name: 'saved-views',
  register: (app, { database }) =>
    registerSavedViewRoutes(app, new SavedViewsService(new SavedViewsRepository(database.db))),
};
