import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** The planning policy an admin sets for everyone. */
export const ZPlanningPolicy = z.strictObject({
  /** Every write that sets an override must leave the record with a reason code. */
  requireOverrideReason: z.boolean({ error: 'must be true or false' }),
});
export type PlanningPolicy = z.infer<typeof ZPlanningPolicy>;

/** Read by every planner (the grid says when a reason code is required); set by an admin. */
export const planningPolicyEndpoints = {
  read: defineEndpoint({
    method: 'GET',
    path: '/api/planning-policy',
    access: 'signed-in',
    summary: 'The planning policy in force (whether an override must carry a reason code)',
    response: { data: ZPlanningPolicy },
  }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/api/planning-policy',
    access: 'admin',
    summary: 'Sets the planning policy for everyone (admins only)',
    body: ZPlanningPolicy,
    response: { data: ZPlanningPolicy },
  }),
};
