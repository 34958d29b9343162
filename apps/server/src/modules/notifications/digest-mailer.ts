import { NOTIFICATION_KINDS, type NotificationKind } from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../../db/schema';
import { composeDigest } from './notification-mail-text';
import { claimDigest, postpone, removeFromOutbox, usersWithDueDigest } from './notifications.repository';

/** A mail that keeps failing is given up after this many tries (about a day with back-off). */
const MAX_ATTEMPTS = 30;

function isKind(kind: string): kind is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

/**
 * Sends notification digests from the outbox. Any server process may run it: each user's mail is
 * claimed with SKIP LOCKED inside a transaction, so two processes never send the same digest,
 * and a mail that fails stays in the outbox for a later try. Requests only write the outbox, so
 * a slow or broken mail server never delays them.
 */
export class DigestMailer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly transport: Transporter;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: {
      smtpUrl: string;
      from: string;
      digestMinutes: number;
      log: FastifyBaseLogger;
    },
  ) {
    this.transport = nodemailer.createTransport(options.smtpUrl);
  }

  start(intervalMs = 5_000): void {
    this.timer = setInterval(() => void this.sendDue(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }

  /** One pass over the outbox; overlapping passes are skipped. Answers how many mails went out. */
  async sendDue(): Promise<number> {
    if (this.running) return 0;
    let sent = 0;
    this.running = (async () => {
      try {
        const users = await usersWithDueDigest(this.db, this.options.digestMinutes);
        for (const userId of users) if (await this.sendDigest(userId)) sent += 1;
      } catch (error) {
        this.options.log.error({ err: error }, 'Notification digest pass failed');
      }
    })();
    await this.running;
    this.running = undefined;
    return sent;
  }

  private async sendDigest(userId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const items = await claimDigest(trx, userId);
      const first = items[0];
      if (!first) return false;
      const ids = items.map((item) => item.notification_id);
      const entries = items.flatMap((item) =>
        isKind(item.kind)
          ? [{ kind: item.kind, content: item.content, createdAt: new Date(item.created_at) }]
          : [],
      );
      try {
        const mail = composeDigest(entries, first.language);
        await this.transport.sendMail({ from: this.options.from, to: first.email, ...mail });
        await removeFromOutbox(trx, ids);
        return true;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.options.log.warn({ userId, err: message }, 'Notification digest not sent; will retry');
        const givenUp = items
          .filter((item) => item.attempts + 1 >= MAX_ATTEMPTS)
          .map((item) => item.notification_id);
        await removeFromOutbox(trx, givenUp);
        await postpone(
          trx,
          ids.filter((id) => !givenUp.includes(id)),
          message,
        );
        return false;
      }
    });
  }
}
