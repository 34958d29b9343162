import { CLIENT_IDS, type ClientId, type RecordChangeEvent } from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { DatabaseHandle, StopListening } from '../../db/database';
import { currentSchema, RECORD_CHANGES_CHANNEL } from './live-updates.repository';

/** What the trigger of migration 0026 sends, one per client and statement. */
const ZNotifyPayload = z.object({
  s: z.string(),
  c: z.enum(CLIENT_IDS),
  n: z.number(),
  np: z.number(),
  p: z.array(z.string()).nullable(),
  f: z.array(z.string()).nullable(),
  b: z.array(z.string()).nullable(),
});

/** A change for one client, or (null) "events may have been missed, refetch". */
export type HubMessage = { clientId: ClientId; event: RecordChangeEvent } | null;
type Subscriber = (message: HubMessage) => void;

/**
 * One LISTEN per server process, shared by every open event stream of that process: the database
 * tells each process about every committed write (whichever process made it), and the hub hands
 * it to the streams whose callers may see that client.
 */
export class RecordChangeHub {
  private readonly subscribers = new Set<Subscriber>();
  private stop: StopListening | null = null;
  private schema = '';

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.schema = await currentSchema(this.database.db);
    this.stop = await this.database.listen(
      RECORD_CHANGES_CHANNEL,
      (payload) => this.receive(payload),
      () => {
        this.log.warn('record change LISTEN reconnected; open grids are told to refetch');
        this.publish(null);
      },
    );
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    await this.stop?.();
    this.stop = null;
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  private receive(payload: string): void {
    let parsed: z.infer<typeof ZNotifyPayload>;
    try {
      parsed = ZNotifyPayload.parse(JSON.parse(payload));
    } catch (error) {
      this.log.error({ err: error, payload }, 'unreadable record change notification');
      return;
    }
    if (parsed.s !== this.schema) return;
    this.publish({
      clientId: parsed.c,
      event: {
        records: parsed.n,
        products: parsed.np,
        pids: parsed.p,
        families: parsed.f,
        businessUnits: parsed.b,
      },
    });
  }

  private publish(message: HubMessage): void {
    for (const subscriber of this.subscribers) subscriber(message);
  }
}
