import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const ZHealth = z.strictObject({
  status: z.enum(['ok', 'degraded']),
  database: z.strictObject({ status: z.enum(['up', 'down']), kind: z.enum(['pglite', 'postgres']) }),
  version: z.string(),
  uptimeSeconds: z.number().int().min(0),
});
export type Health = z.infer<typeof ZHealth>;

const summary = '200 when the database answers, else 503 with status degraded';

export const healthEndpoints = {
  health: defineEndpoint({
    method: 'GET',
    path: '/health',
    access: 'public',
    summary,
    response: { data: ZHealth },
  }),
  apiHealth: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/health',
    access: 'public',
    summary,
    response: { data: ZHealth },
  }),
};
