import type { ServerModule } from '../../lib/server-module';
import { demandRecordBatchSave } from '../demand-records';
import { registerAiAssistantRoutes } from './ai-assistant.routes';
import { AiAssistantService } from './ai-assistant.service';
import { loadAiConfig } from './ai-config';
import { assistantClock } from './clock';
import { modelFromConfig } from './model-chat';

export const aiAssistantModule: ServerModule = {
  name: 'ai-assistant',
  register: async (app, { database, log }) => {
    const config = loadAiConfig();
    const service = new AiAssistantService({
      db: database.db,
      config,
      model: modelFromConfig(config),
      saveBatch: await demandRecordBatchSave(database.db),
      log,
      now: assistantClock(config),
    });
    registerAiAssistantRoutes(app, service);
  },
};
