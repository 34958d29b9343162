import type { ClientId, NotificationContent, NotificationKind } from '@ps/domain';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { readWithoutJit } from '../../db/write-transaction';

/** Whom an event concerns: named users, or every known user of some clients. */
export type Recipients =
  { userIds: readonly string[] } | { userNames: readonly string[] } | { clientIds: readonly ClientId[] };

type RecipientRow = { user_id: string; email: string | null; wants_mail: boolean };

function recipientsQuery(db: Kysely<Database>, recipients: Recipients) {
  const base = db.selectFrom('user_settings').select([
    'user_id',
    'email',
    // The spec's default for emailNotifications is on: a user who never saved settings gets mail.
    sql<boolean>`coalesce((settings ->> 'emailNotifications')::boolean, true)`.as('wants_mail'),
  ]);
  if ('userIds' in recipients) return base.where('user_id', 'in', [...recipients.userIds]);
  if ('userNames' in recipients) return base.where('user_name', 'in', [...recipients.userNames]);
  return base.where(sql<boolean>`client_ids && ${[...recipients.clientIds]}::text[]`);
}

/**
 * One notification per recipient (except `exceptUserId`, who caused the event), and a place in
 * the mail outbox for those who want mail, in one transaction.
 */
export async function insertNotifications(
  db: Kysely<Database>,
  event: {
    recipients: Recipients;
    exceptUserId?: string | undefined;
    kind: NotificationKind;
    content: NotificationContent;
    queueMail: boolean;
  },
): Promise<number> {
  const empty =
    ('userIds' in event.recipients && event.recipients.userIds.length === 0) ||
    ('userNames' in event.recipients && event.recipients.userNames.length === 0) ||
    ('clientIds' in event.recipients && event.recipients.clientIds.length === 0);
  if (empty) return 0;
  return db.transaction().execute(async (trx) => {
    const users: RecipientRow[] = (await recipientsQuery(trx, event.recipients).execute()).filter(
      (user) => user.user_id !== event.exceptUserId,
    );
    if (users.length === 0) return 0;
    const inserted = await trx
      .insertInto('notifications')
      .values(
        users.map((user) => ({
          user_id: user.user_id,
          kind: event.kind,
          content: JSON.stringify(event.content),
        })),
      )
      .returning(['id', 'user_id'])
      .execute();
    if (event.queueMail) {
      const byUser = new Map(users.map((user) => [user.user_id, user]));
      const mail = inserted.flatMap((row) => {
        const user = byUser.get(row.user_id);
        return user?.email && user.wants_mail
          ? [{ notification_id: row.id, user_id: row.user_id, email: user.email }]
          : [];
      });
      if (mail.length > 0) await trx.insertInto('email_outbox').values(mail).execute();
    }
    return inserted.length;
  });
}

export type NotificationRow = {
  id: number;
  kind: string;
  content: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
};

export async function listNotifications(
  db: Kysely<Database>,
  userId: string,
  limit: number,
): Promise<{ rows: NotificationRow[]; unread: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('notifications')
      .select(['id', 'kind', 'content', 'created_at', 'read_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('notifications')
      .select(sql<number>`count(*)::int`.as('unread'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, unread: count.unread };
}

export async function markRead(
  db: Kysely<Database>,
  userId: string,
  ids: readonly number[] | undefined,
): Promise<void> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) {
    if (ids.length === 0) return;
    query = query.where('id', 'in', [...ids]);
  }
  await query.execute();
}

export type DigestItem = {
  notification_id: number;
  email: string;
  attempts: number;
  kind: string;
  content: Record<string, unknown>;
  created_at: Date;
  language: string | null;
};

/**
 * Users whose oldest waiting notification has waited `digestMinutes`: their whole outbox goes
 * out as one mail, so a busy hour sends one digest, never one mail per event.
 */
export async function usersWithDueDigest(db: Kysely<Database>, digestMinutes: number): Promise<string[]> {
  const rows = await db
    .selectFrom('email_outbox as o')
    .innerJoin('notifications as n', 'n.id', 'o.notification_id')
    .select('o.user_id')
    .where('o.next_attempt_at', '<=', sql<Date>`now()`)
    .groupBy('o.user_id')
    .having(
      sql<Date>`min(n.created_at)`,
      '<=',
      sql<Date>`now() - make_interval(secs => ${digestMinutes * 60})`,
    )
    .execute();
  return rows.map((row) => row.user_id);
}

/** Locks a user's waiting mail (another process sending it skips it) inside `trx`. */
export async function claimDigest(trx: Kysely<Database>, userId: string): Promise<DigestItem[]> {
  return trx
    .selectFrom('email_outbox as o')
    .innerJoin('notifications as n', 'n.id', 'o.notification_id')
    .leftJoin('user_settings as u', 'u.user_id', 'o.user_id')
    .select([
      'o.notification_id',
      'o.email',
      'o.attempts',
      'n.kind',
      'n.content',
      'n.created_at',
      sql<string | null>`u.settings ->> 'language'`.as('language'),
    ])
    .where('o.user_id', '=', userId)
    .where('o.next_attempt_at', '<=', sql<Date>`now()`)
    .orderBy('n.id')
    .forUpdate('o')
    .skipLocked()
    .execute();
}

export async function removeFromOutbox(trx: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length > 0)
    await trx
      .deleteFrom('email_outbox')
      .where('notification_id', 'in', [...ids])
      .execute();
}

/** A failed send waits 2^attempts minutes (at most an hour) before the next try. */
export async function postpone(trx: Kysely<Database>, ids: readonly number[], error: string): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('email_outbox')
    .set({
      attempts: sql`attempts + 1`,
      next_attempt_at: sql`now() + make_interval(mins => least(60, power(2, attempts)::int))`,
      last_error: error.slice(0, 500),
    })
    .where('notification_id', 'in', [...ids])
    .execute();
}

export type RecordChange = { pid: string; weekStart: string; field: string };

/** Sources of a person's own change to a record (forecast runs and publishes are the system's). */
const PLANNER_SOURCES = ['edit', 'batch', 'spread', 'undo', 'import'];

/** Someone else who changed some of the records before, with how many and one as an example. */
export type EarlierAuthor = {
  changed_by: string;
  pid: string;
  week_start: string;
  field: string;
  records: number;
};

/**
 * The other people who changed these records before, with how many of the records each had
 * changed and one of them as an example (the audit trail's own index by record serves it), read
 * in `trx`, which must run without JIT: a save's thousands of keys push the estimate over the
 * thresholds (readWithoutJit).
 */
export async function earlierAuthorsIn(
  trx: Transaction<Database>,
  changes: readonly RecordChange[],
  exceptName: string,
): Promise<EarlierAuthor[]> {
  if (changes.length === 0) return [];
  const { rows } = await sql<EarlierAuthor>`
    with changed as (
      select distinct pid, week_start::date as week_start
      from unnest(${changes.map((c) => c.pid)}::text[], ${changes.map((c) => c.weekStart)}::text[]) as c(pid, week_start)
    )
    select a.changed_by, min(a.pid) as pid, min(a.week_start)::text as week_start, min(a.field) as field,
      count(distinct (a.pid, a.week_start))::int as records
    from audit_log a join changed c on c.pid = a.pid and c.week_start = a.week_start
    where a.changed_by <> ${exceptName} and a.source = any(${PLANNER_SOURCES}::text[])
    group by a.changed_by`.execute(trx);
  return rows;
}

/** earlierAuthorsIn, in a transaction of its own without JIT. */
export function earlierAuthors(
  db: Kysely<Database>,
  changes: readonly RecordChange[],
  exceptName: string,
): Promise<EarlierAuthor[]> {
  if (changes.length === 0) return Promise.resolve([]);
  return readWithoutJit(db, (trx) => earlierAuthorsIn(trx, changes, exceptName));
}
