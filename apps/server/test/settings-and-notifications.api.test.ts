import {
  DEFAULT_USER_SETTINGS,
  type ExchangeRates,
  type NotificationList,
  type StoredUserSettings,
} from '@ps/domain';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DigestMailer } from '../src/modules/notifications';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { freePort } from './support/free-port';
import { startTestServer, type TestServer } from './support/test-server';

/** A real SMTP server that keeps every mail it receives. */
async function startMailbox(): Promise<{ url: string; mails: string[]; close: () => Promise<void> }> {
  const mails: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push(text);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** A mail's text as a person reads it: quoted-printable soft breaks and escapes undone. */
const readable = (mail: string): string =>
  Buffer.from(
    mail
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const silentLog = { error: () => undefined, warn: () => undefined, info: () => undefined } as never;

describe.each(backends)('settings, exchange rates and notifications on %s', (backend) => {
  let server: TestServer;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  beforeAll(async () => {
    mailbox = await startMailbox();
    // A day-long digest window: the server's own mailer never sends; the test sends the digest.
    server = await startTestServer(
      backend,
      { products: 12, weeks: 8 },
      {
        env: { SMTP_URL: mailbox.url, NOTIFY_DIGEST_MINUTES: '1440', SMTP_FROM: 'suite@example.com' },
      },
    );
  });
  afterAll(async () => {
    await server?.close();
    await mailbox?.close();
  });

  describe('user settings', () => {
    it('are null before the first save, then follow the user and stay their own', async () => {
      const before = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings', undefined, {
        as: 'circor',
      });
      expect(before.status).toBe(200);
      expect(before.body.data.settings).toBeNull();

      const chosen = {
        ...DEFAULT_USER_SETTINGS,
        language: 'german',
        currency: 'eur',
        numberFormat: 'indian',
      } as const;
      const saved = await server.request<Ok<StoredUserSettings>>('PUT', '/api/user-settings', chosen, {
        as: 'circor',
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data.settings).toEqual(chosen);

      // What another browser reads after signing in as the same user.
      const again = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings', undefined, {
        as: 'circor',
      });
      expect(again.body.data.settings).toEqual(chosen);
      const admins = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings', undefined, {
        as: 'admin',
      });
      expect(admins.body.data.settings).toBeNull();
    });

    it('load and save for a user in no group, who reaches nothing else', async () => {
      const chosen = { ...DEFAULT_USER_SETTINGS, theme: 'dark' } as const;
      const saved = await server.request<Ok<StoredUserSettings>>('PUT', '/api/user-settings', chosen, {
        as: 'nogroup',
      });
      expect(saved.status).toBe(200);
      const read = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings', undefined, {
        as: 'nogroup',
      });
      expect(read.body.data.settings).toEqual(chosen);
      const rates = await server.request('GET', '/api/exchange-rates', undefined, { as: 'nogroup' });
      expect(rates.status).toBe(403);
    });

    it('refuses a bad value by name and keeps what was saved', async () => {
      const bad = await server.request<Failure>(
        'PUT',
        '/api/user-settings',
        { ...DEFAULT_USER_SETTINGS, currency: 'jpy' },
        { as: 'circor' },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^currency /);
      const missing = await server.request<Failure>(
        'PUT',
        '/api/user-settings',
        { theme: 'dark' },
        { as: 'circor' },
      );
      expect(missing.status).toBe(400);
      const after = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings', undefined, {
        as: 'circor',
      });
      expect(after.body.data.settings?.currency).toBe('eur');
      expect((await server.request('GET', '/api/user-settings', undefined, { as: 'anonymous' })).status).toBe(
        401,
      );
    });
  });

  describe('exchange rates', () => {
    it('lists the seeded rates; an admin sets and removes one, audited', async () => {
      const list = await server.request<Ok<ExchangeRates>>('GET', '/api/exchange-rates', undefined, {
        as: 'circor',
      });
      expect(list.status).toBe(200);
      expect(list.body.data.base).toBe('usd');
      expect(list.body.data.rates).toContainEqual({ currency: 'eur', validFrom: '2026-07-01', rate: 0.864 });

      const set = await server.request<Ok<ExchangeRates>>('PUT', '/api/exchange-rates/eur/2026-11-01', {
        rate: 0.8725,
      });
      expect(set.status).toBe(200);
      expect(set.body.data.rates).toContainEqual({ currency: 'eur', validFrom: '2026-11-01', rate: 0.8725 });
      expect(set.body.data.changes[0]).toMatchObject({
        currency: 'eur',
        validFrom: '2026-11-01',
        oldRate: null,
        newRate: 0.8725,
        changedBy: 'Demo Admin',
      });

      const removed = await server.request<Ok<ExchangeRates>>('DELETE', '/api/exchange-rates/eur/2026-11-01');
      expect(removed.status).toBe(200);
      expect(removed.body.data.rates.some((r) => r.validFrom === '2026-11-01')).toBe(false);
      expect(removed.body.data.changes[0]).toMatchObject({ oldRate: 0.8725, newRate: null });
    });

    it('refuses customers, unknown currencies, bad dates and rates, and unknown rates', async () => {
      const customer = await server.request(
        'PUT',
        '/api/exchange-rates/eur/2026-11-01',
        { rate: 1 },
        { as: 'circor' },
      );
      expect(customer.status).toBe(403);
      const cases: Array<[string, unknown, RegExp]> = [
        ['/api/exchange-rates/jpy/2026-11-01', { rate: 150 }, /^currency /],
        ['/api/exchange-rates/eur/2026-02-30', { rate: 1 }, /^validFrom /],
        ['/api/exchange-rates/eur/2026-11-01', { rate: 0 }, /^rate must be greater than 0/],
        ['/api/exchange-rates/eur/2026-11-01', { rate: 1e300 }, /^rate /],
        ['/api/exchange-rates/eur/2026-11-01', { rate: '0.9' }, /^rate must be a number/],
      ];
      for (const [path, body, message] of cases) {
        const answer = await server.request<Failure>('PUT', path, body);
        expect([path, answer.status, answer.body.message]).toEqual([
          path,
          400,
          expect.stringMatching(message),
        ]);
      }
      const unknown = await server.request<Failure>('DELETE', '/api/exchange-rates/gbp/2020-01-01');
      expect(unknown.status).toBe(404);
      const rows = await sql<{
        n: number;
      }>`select count(*)::int as n from exchange_rates where valid_from = '2026-11-01'`.execute(
        server.database.db,
      );
      expect(rows.rows[0]?.n).toBe(0);
    });
  });

  describe('notifications', () => {
    const notificationsOf = async (as: 'admin' | 'circor') =>
      (await server.request<Ok<NotificationList>>('GET', '/api/notifications', undefined, { as })).body.data;

    it("tell a client's users about a publish, not the publisher, and only their own", async () => {
      await server.request('GET', '/api/user-settings', undefined, { as: 'admin' });
      await server.request('GET', '/api/user-settings', undefined, { as: 'circor' });
      const before = await notificationsOf('circor');
      expect(before.emailAvailable).toBe(true);

      const published = await server.request('POST', '/api/plan-cycles', {
        label: 'Q4 consensus',
        clientContext: 'circor',
      });
      expect(published.status).toBe(201);

      const after = await notificationsOf('circor');
      expect(after.unreadCount).toBe(before.unreadCount + 1);
      expect(after.items[0]).toMatchObject({
        kind: 'plan-cycle-published',
        content: { label: 'Q4 consensus', by: 'Demo Admin' },
        read: false,
      });
      expect((await notificationsOf('admin')).items.some((n) => n.kind === 'plan-cycle-published')).toBe(
        false,
      );

      const read = await server.request<Ok<NotificationList>>(
        'POST',
        '/api/notifications/read',
        {},
        { as: 'circor' },
      );
      expect(read.body.data.unreadCount).toBe(0);
      const bad = await server.request<Failure>(
        'POST',
        '/api/notifications/read',
        { ids: ['x'] },
        { as: 'circor' },
      );
      expect(bad.status).toBe(400);
    });

    it('tell a planner when someone else changes a record they had overridden', async () => {
      const { rows } = await sql<{ pid: string; sk: string }>`
        select r.pid, to_char(r.week_start, 'YYYYMMDD') as sk from demand_records r
        join products p on p.pid = r.pid where p.client_id = 'circor' order by r.pid, r.week_start desc limit 1`.execute(
        server.database.db,
      );
      const record = rows[0]!;
      const path = `/api/demand-planning/real-data/${record.pid}/${record.sk}`;
      expect((await server.request('PUT', path, { Rev_Pln_Ovrd_Percent: 7 }, { as: 'admin' })).status).toBe(
        200,
      );
      const before = (await notificationsOf('admin')).items.filter(
        (n) => n.kind === 'override-changed',
      ).length;
      expect((await server.request('PUT', path, { Rev_Pln_Ovrd_Percent: 9 }, { as: 'circor' })).status).toBe(
        200,
      );
      const changed = (await notificationsOf('admin')).items.filter((n) => n.kind === 'override-changed');
      expect(changed).toHaveLength(before + 1);
      expect(changed[0]!.content).toMatchObject({ by: 'Circor Planner', pid: record.pid, count: 1 });
      // Nobody is told about their own change.
      expect((await notificationsOf('circor')).items.some((n) => n.kind === 'override-changed')).toBe(false);
    });

    it('tell the requester when a forecast run finishes, and mail one digest for all waiting events', async () => {
      const started = await server.request<Ok<{ id: number }>>('POST', '/api/forecast/runs', {});
      expect(started.status).toBe(202);
      const runId = started.body.data.id;
      let status = 'running';
      for (let i = 0; i < 240 && status === 'running'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        status = (await server.request<Ok<{ status: string }>>('GET', `/api/forecast/runs/${runId}`)).body
          .data.status;
      }
      expect(status).toBe('succeeded');
      const admin = await notificationsOf('admin');
      expect(admin.items[0]).toMatchObject({
        kind: 'forecast-run-succeeded',
        content: { runId, products: 12 },
      });

      // A second publish: circor now has two events waiting, which must go out as one mail.
      await server.request('POST', '/api/plan-cycles', { label: 'Q4 final', clientContext: 'circor' });
      // The server waits a day before a digest; a mailer with no wait sends what is due now.
      const mailer = new DigestMailer(server.database.db, {
        smtpUrl: mailbox.url,
        from: 'suite@example.com',
        digestMinutes: 0,
        log: silentLog,
      });
      const sent = await mailer.sendDue();
      await mailer.stop();
      // admin: the forecast run; circor: both publishes. One mail each, whatever the number of events.
      expect(sent).toBe(2);
      expect(mailbox.mails).toHaveLength(2);
      const adminMail = mailbox.mails.find((mail) => mail.includes('To: admin@demo.local'));
      expect(adminMail).toContain(`Forecast run ${runId} finished: 12 products`);
      const circorMail = mailbox.mails.map(readable).find((mail) => mail.includes('To: circor@demo.local'));
      // circor chose German above: its digest is in German.
      expect(circorMail).toMatch(/Subject: Planning Suite: 2 Benachrichtigungen/);
      expect(circorMail).toContain('Q4 consensus');
      expect(circorMail).toContain('Q4 final');
      const left = await sql<{ n: number }>`select count(*)::int as n from email_outbox`.execute(
        server.database.db,
      );
      expect(left.rows[0]?.n).toBe(0);
    });
  });
});
