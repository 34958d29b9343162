import type pg from 'pg';

/**
 * Server-side prepared statements for the read statements a process repeats (ADR 0013).
 *
 * Every grid page, dashboard and summary is one long statement whose text repeats with new
 * parameters. Sent unnamed, PostgreSQL parses, analyses and rewrites it again on every call.
 * Prepared once per connection, it is only bound, planned and executed. Planned every time: the
 * connections run with `plan_cache_mode = force_custom_plan`, because PostgreSQL's default would
 * keep a generic plan after five executions whenever its estimate is no dearer, and a generic
 * plan does not know how many candidates a figure-sorted page passes in its array: products by
 * quarter sorted by final units became about twenty times slower a call on a large data set.
 *
 * Only plain reads are prepared: a write's plan can hinge on the size of its arrays (a batch of 4
 * or 5,000 records, a forecast run's chunk), and writes' triggers are planned on their own anyway.
 * A text is prepared once this process has seen it `seenBeforePreparing` times, so one-off texts
 * (values written into the SQL, rare sorts) never take a slot; each connection keeps at most
 * `perConnection` statements and deallocates the one used least recently to make room.
 */
export type PreparedReadsOptions = { perConnection: number; seenBeforePreparing: number };

const PREPARED_READS_DEFAULTS: PreparedReadsOptions = { perConnection: 64, seenBeforePreparing: 2 };

/** How many distinct texts the process counts before it forgets them all and starts again. */
const SEEN_TEXTS_LIMIT = 5_000;

const READ = /^\s*(select|with)\b/i;
const WRITES = /\b(insert|update|delete|merge|copy|lock|for\s+(no\s+key\s+)?(update|share|key\s+share))\b/i;

/** A plain read: a select (or a with) that neither writes nor locks rows. */
export const isPlainRead = (text: string): boolean => READ.test(text) && !WRITES.test(text);

/** pg's per-connection record of the statements it has prepared (not in its type definitions). */
type PgConnection = {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
};
type QueryFn = (...args: unknown[]) => unknown;

/** Patches each new pool client so that its repeated plain reads run as named statements. */
export function preparedReadsOn(
  pool: pg.Pool,
  options: PreparedReadsOptions = PREPARED_READS_DEFAULTS,
): void {
  const seen = new Map<string, number>();
  let nextName = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    // The connection's first statement, queued before any the pool hands it out for.
    void (query('set plan_cache_mode = force_custom_plan') as Promise<unknown>).catch(() => undefined);
    const connection = (client as unknown as { connection: PgConnection }).connection;
    /** Statement name by text, least recently used first. */
    const prepared = new Map<string, string>();
    const nameFor = (text: string): string | null => {
      const name = prepared.get(text);
      if (name !== undefined) {
        prepared.delete(text);
        prepared.set(text, name);
        return name;
      }
      const count = (seen.get(text) ?? 0) + 1;
      if (seen.size >= SEEN_TEXTS_LIMIT && count === 1) seen.clear();
      seen.set(text, count);
      if (count < options.seenBeforePreparing) return null;
      if (prepared.size >= options.perConnection) {
        const [oldText, oldName] = prepared.entries().next().value as [string, string];
        prepared.delete(oldText);
        // Forgotten at once, so a later use of the text prepares it again under a new name; the
        // client runs its queries in order, so the deallocation reaches the server first.
        delete connection.parsedStatements[oldName];
        delete connection.submittedNamedStatements[oldName];
        void (query(`deallocate "${oldName}"`) as Promise<unknown>).catch(() => undefined);
      }
      const fresh = `r${(nextName++).toString(36)}`;
      prepared.set(text, fresh);
      return fresh;
    };
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text === 'string' && Array.isArray(values) && args.length === 2 && isPlainRead(text)) {
        const name = nameFor(text);
        if (name !== null) return query({ name, text, values });
      }
      return query(...args);
    };
  });
}
