import { z } from 'zod';
import { NOTIFICATION_KINDS } from '../notifications';
import { defineEndpoint } from './endpoint';

export const ZNotification = z.strictObject({
  id: z.number().int(),
  timestamp: z.iso.datetime(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The event's figures; the screen words them in the user's language. */
  content: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  read: z.boolean(),
});

export const ZNotificationList = z.strictObject({
  items: z.array(ZNotification),
  unreadCount: z.number().int().min(0),
  /** Whether a mail server is configured: without one, notifications are in-app only. */
  emailAvailable: z.boolean(),
});
export type NotificationList = z.infer<typeof ZNotificationList>;

export const ZMarkNotificationsRead = z.strictObject({
  /** The notifications to mark read; leave out to mark all of the caller's read. */
  ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).max(500).optional(),
});

/** The notification centre: the caller's own notifications only. */
export const notificationEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/notifications',
    access: 'signed-in',
    summary: "The caller's latest 50 notifications and the unread count",
    response: { data: ZNotificationList },
  }),
  markRead: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/read',
    access: 'signed-in',
    summary: "Marks the caller's notifications read",
    body: ZMarkNotificationsRead,
    response: { data: ZNotificationList },
  }),
};
