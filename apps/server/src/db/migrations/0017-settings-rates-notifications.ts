import { sql, type Kysely } from 'kysely';

/**
 * Settings that follow the user: each signed-in user's settings on the server, the
 * exchange rates money is converted with (with their change history), and in-app notifications
 * with an outbox of mail waiting for the next digest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Also who the users are (name, email, clients), noted at each sign-in's first call, so events
  // can find whom to notify: the suite has no user table of its own (users live in the provider).
  await sql`create table user_settings (
    user_id text primary key,
    user_name text not null,
    email text,
    client_ids text[] not null,
    settings jsonb,
    updated_at timestamptz,
    seen_at timestamptz not null default now()
  )`.execute(db);

  // rate = units of the currency for one US dollar (the base currency of every stored amount).
  await sql`create table exchange_rates (
    currency text not null check (currency in ('eur', 'inr', 'gbp')),
    valid_from date not null,
    rate numeric(18, 8) not null check (rate > 0),
    updated_by text not null,
    updated_at timestamptz not null default now(),
    primary key (currency, valid_from)
  )`.execute(db);
  await sql`create table exchange_rate_changes (
    id bigserial primary key,
    currency text not null,
    valid_from date not null,
    old_rate numeric(18, 8),
    new_rate numeric(18, 8),
    changed_by text not null,
    changed_at timestamptz not null default now()
  )`.execute(db);
  // Month-end reference rates of 2025–2026 (ECB / RBI orders of magnitude), so the demo converts.
  await sql`insert into exchange_rates (currency, valid_from, rate, updated_by) values
    ('eur', '2025-01-01', 0.96150000, 'system'),
    ('eur', '2025-07-01', 0.85180000, 'system'),
    ('eur', '2026-01-01', 0.85900000, 'system'),
    ('eur', '2026-07-01', 0.86400000, 'system'),
    ('gbp', '2025-01-01', 0.79850000, 'system'),
    ('gbp', '2025-07-01', 0.72920000, 'system'),
    ('gbp', '2026-01-01', 0.74400000, 'system'),
    ('gbp', '2026-07-01', 0.75100000, 'system'),
    ('inr', '2025-01-01', 85.61000000, 'system'),
    ('inr', '2025-07-01', 85.76000000, 'system'),
    ('inr', '2026-01-01', 89.95000000, 'system'),
    ('inr', '2026-07-01', 88.72000000, 'system')`.execute(db);

  await sql`create table notifications (
    id bigserial primary key,
    user_id text not null,
    kind text not null,
    content jsonb not null,
    created_at timestamptz not null default now(),
    read_at timestamptz
  )`.execute(db);
  await sql`create index notifications_by_user on notifications (user_id, id desc)`.execute(db);
  // One row per notification that still has to go out by mail; a digest takes all of a user's.
  await sql`create table email_outbox (
    notification_id bigint primary key references notifications (id) on delete cascade,
    user_id text not null,
    email text not null,
    attempts int not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text
  )`.execute(db);
  await sql`create index email_outbox_due on email_outbox (next_attempt_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table email_outbox, notifications, exchange_rate_changes, exchange_rates, user_settings`.execute(
    db,
  );
}
