import {
  NOTIFICATION_KINDS,
  type NotificationContent,
  type NotificationKind,
  type NotificationList,
} from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import {
  earlierAuthors,
  earlierAuthorsIn,
  type EarlierAuthor,
  insertNotifications,
  type RecordChange,
  listNotifications,
  markRead,
  type NotificationRow,
  type Recipients,
} from './notifications.repository';

const SHOWN = 50;

function toContent(value: Record<string, unknown>): NotificationContent {
  const content: NotificationContent = {};
  for (const [key, item] of Object.entries(value)) {
    content[key] = typeof item === 'number' || typeof item === 'string' ? item : null;
  }
  return content;
}

function isKind(kind: string): kind is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

/** The notification centre's reads: the caller's own notifications only. */
export class NotificationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly emailAvailable: boolean,
  ) {}

  async list(scope: AccessScope): Promise<NotificationList> {
    const { rows, unread } = await listNotifications(this.db, scope.userId, SHOWN);
    return {
      items: rows.flatMap((row: NotificationRow) =>
        isKind(row.kind)
          ? [
              {
                id: row.id,
                timestamp: new Date(row.created_at).toISOString(),
                kind: row.kind,
                content: toContent(row.content),
                read: row.read_at !== null,
              },
            ]
          : [],
      ),
      unreadCount: unread,
      emailAvailable: this.emailAvailable,
    };
  }

  async markRead(scope: AccessScope, ids: readonly number[] | undefined): Promise<NotificationList> {
    await markRead(this.db, scope.userId, ids);
    return this.list(scope);
  }
}

export type { Recipients };

/**
 * What other modules call when something a planner cares about happens. Recording a notification
 * is one short insert; mail goes later from the outbox (DigestMailer). A failure to notify is
 * logged and never fails the work that caused it.
 */
export class Notifier {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { queueMail: boolean; log: FastifyBaseLogger },
  ) {}

  /** Where callers log a failure to work out whom to notify (it must not fail their work either). */
  get log(): FastifyBaseLogger {
    return this.options.log;
  }

  async notify(event: {
    recipients: Recipients;
    /** The user who caused the event is not told about it. */
    exceptUserId?: string | undefined;
    kind: NotificationKind;
    content: NotificationContent;
  }): Promise<void> {
    try {
      await insertNotifications(this.db, { ...event, queueMail: this.options.queueMail });
    } catch (error) {
      this.options.log.error({ err: error, kind: event.kind }, 'Notification not recorded');
    }
  }

  /**
   * Someone saved changes to records: everyone else who had changed those records before is told,
   * once per save, with how many of their records moved and one as an example.
   */
  async overridesChanged(scope: AccessScope, changes: readonly RecordChange[]): Promise<void> {
    try {
      await this.tellAuthors(scope, await earlierAuthors(this.db, changes, scope.userName));
    } catch (error) {
      this.options.log.error({ err: error }, 'Override change notifications not recorded');
    }
  }

  /**
   * overridesChanged in two steps, for a save that reads whom to tell in its own transaction
   * (without JIT) and tells them after its commit: no connection of its own for the read, which
   * under load waits its turn in the pool like a request of its own.
   */
  authorsToTell(
    trx: Transaction<Database>,
    scope: AccessScope,
    changes: readonly RecordChange[],
  ): Promise<EarlierAuthor[]> {
    return earlierAuthorsIn(trx, changes, scope.userName);
  }

  /** Tells each earlier author that `scope` changed their records (each failure is logged by notify). */
  async tellAuthors(scope: AccessScope, authors: readonly EarlierAuthor[]): Promise<void> {
    for (const author of authors) {
      await this.notify({
        recipients: { userNames: [author.changed_by] },
        exceptUserId: scope.userId,
        kind: 'override-changed',
        content: {
          by: scope.userName,
          pid: author.pid,
          week: author.week_start,
          field: author.field,
          count: author.records,
        },
      });
    }
  }
}
