import { z } from 'zod';
import { ZClientContextParam } from '../demand-record.schema';
import { defineEndpoint } from './endpoint';

/**
 * One committed write to demand records, as the grid's event stream sends it:
 * how many records of how many products changed, and which products, families and business units
 * they belong to. A list the server did not send in full is null ("many"): refetch what is shown.
 */
export const ZRecordChangeEvent = z.object({
  records: z.number().int().nonnegative(),
  products: z.number().int().nonnegative(),
  pids: z.array(z.string()).nullable(),
  families: z.array(z.string()).nullable(),
  businessUnits: z.array(z.string()).nullable(),
});
export type RecordChangeEvent = z.infer<typeof ZRecordChangeEvent>;

/** Server-sent event names of the stream: a change, or "refetch everything" after a gap. */
export const LIVE_EVENT = { change: 'records-changed', resync: 'resync' } as const;

export const liveUpdateEndpoints = {
  events: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/events',
    access: 'signed-in',
    summary:
      'Server-sent events: a records-changed event for every committed write to records the caller may see (any server process), resync after a gap',
    query: z.object({ clientContext: ZClientContextParam }),
    response: { mediaType: 'text/event-stream' },
  }),
};
