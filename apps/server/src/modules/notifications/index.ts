import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { ServerModule } from '../../lib/server-module';
import { DigestMailer } from './digest-mailer';
import { registerNotificationRoutes } from './notifications.routes';
import { NotificationService, Notifier } from './notifications.service';

export { Notifier, type Recipients } from './notifications.service';
export type { EarlierAuthor, RecordChange } from './notifications.repository';
export { DigestMailer } from './digest-mailer';

/** The notifier other modules record events with (mail is queued only when a server is configured). */
export function createNotifier(db: Kysely<Database>, config: AppConfig, log: FastifyBaseLogger): Notifier {
  return new Notifier(db, { queueMail: Boolean(config.SMTP_URL), log });
}

export const notificationsModule: ServerModule = {
  name: 'notifications',
  register: (app, { config, database, log }) => {
    registerNotificationRoutes(app, new NotificationService(database.db, Boolean(config.SMTP_URL)));
    if (config.SMTP_URL) {
      const mailer = new DigestMailer(database.db, {
        smtpUrl: config.SMTP_URL,
        from: config.SMTP_FROM,
        digestMinutes: config.NOTIFY_DIGEST_MINUTES,
        log,
      });
      mailer.start();
      app.addHook('onClose', () => mailer.stop());
    }
  },
};
