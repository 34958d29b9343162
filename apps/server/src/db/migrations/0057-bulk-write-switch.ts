import { sql, type Kysely } from 'kysely';

/**
 * One switch for set-based writers: while `planning.bulk_write` is 'on' in a transaction, every
 * trigger of demand_records that keeps a read-model table stands aside, by a WHEN clause (no
 * function call, no pairing of old and new rows). The writer then rebuilds the kept tables of the
 * keys it wrote (read-model/bulk-apply.ts, bulkWrite) in the same transaction.
 *
 * It replaces `planning.skip_rollup`, which five of those trigger functions checked in their
 * bodies (and two did not: the overridden records' insert and the accuracy notes), and after which
 * each writer redid the triggers' sums itself. The checks are taken out of the function bodies.
 * The change notifications (demand_records_notify_*) and the TRUNCATE triggers keep firing.
 * Trigger names stay the same, so they fire in the same order.
 */

const ON = `coalesce(current_setting('planning.bulk_write', true), '') <> 'on'`;

/** Each kept-table trigger of demand_records: name, event, transition tables, function, condition. */
const TRIGGERS: ReadonlyArray<[string, 'insert' | 'update' | 'delete', string, string, string | null]> = [
  ['accuracy_note_delete', 'delete', 'row', 'accuracy_note_record', 'old.act_bkg_units is not null'],
  ['accuracy_note_insert', 'insert', 'row', 'accuracy_note_record', 'new.act_bkg_units is not null'],
  [
    'accuracy_note_update',
    'update',
    'row',
    'accuracy_note_record',
    'old.act_bkg_units is distinct from new.act_bkg_units',
  ],
  ['accuracy_refresh_delete', 'delete', '', 'accuracy_refresh_noted', null],
  ['accuracy_refresh_insert', 'insert', '', 'accuracy_refresh_noted', null],
  ['accuracy_refresh_update', 'update', '', 'accuracy_refresh_noted', null],
  ...(
    [
      ['annotation_digest', 'annotation_digest_on_records'],
      ['annotation_unit_digest', 'annotation_unit_digest_on_records'],
      ['demand_overridden_records', 'demand_overridden_records_on_records'],
      ['demand_product_extremes', 'demand_product_extremes_on_records'],
      ['demand_week_totals', 'demand_week_totals_on_records'],
    ] as const
  ).flatMap(([prefix, fn]) =>
    (
      [
        ['delete', 'referencing old table as old_rows'],
        ['insert', 'referencing new table as new_rows'],
        ['update', 'referencing old table as old_rows new table as new_rows'],
      ] as const
    ).map(([event, referencing]): [string, 'insert' | 'update' | 'delete', string, string, null] => [
      `${prefix}_${event}`,
      event,
      referencing,
      fn,
      null,
    ]),
  ),
];

const createTrigger = (
  [name, event, referencing, fn, when]: (typeof TRIGGERS)[number],
  switchable: boolean,
): string => {
  const conditions = [switchable ? ON : null, when].filter((c): c is string => c !== null);
  const level = referencing === 'row' ? 'row' : 'statement';
  return `create trigger ${name} after ${event} on demand_records
    ${referencing === 'row' ? '' : referencing} for each ${level}
    ${conditions.length > 0 ? `when (${conditions.map((c) => `(${c})`).join(' and ')})` : ''}
    execute function ${fn}()`;
};

/** The body guards the switch replaces, as the earlier migrations wrote them. */
const GUARD =
  /\n\s*if coalesce\(current_setting\('planning\.skip_rollup', true\), ''\) = 'on' then\s*return null;\s*end if;/;
const OVERRIDDEN_GUARD =
  /elsif coalesce\(current_setting\('planning\.skip_rollup', true\), ''\) <> 'on' then\s*-- A publish \(the only update with the switch on\) moves no figure kept here\./;
const GUARDED = [
  'annotation_digest_on_records',
  'annotation_unit_digest_on_records',
  'demand_product_extremes_on_records',
  'demand_week_totals_on_records',
];

async function definitionOf(db: Kysely<unknown>, fn: string): Promise<string> {
  const { rows } = await sql<{ def: string }>`select pg_get_functiondef(${fn}::regproc) as def`.execute(db);
  return rows[0]!.def;
}

async function rewrite(db: Kysely<unknown>, fn: string, pattern: RegExp, replacement: string): Promise<void> {
  const before = await definitionOf(db, fn);
  if (!pattern.test(before)) throw new Error(`${fn}: the expected text was not found`);
  await sql.raw(before.replace(pattern, replacement)).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const trigger of TRIGGERS) {
    await sql.raw(`drop trigger ${trigger[0]} on demand_records`).execute(db);
    await sql.raw(createTrigger(trigger, true)).execute(db);
  }
  for (const fn of GUARDED) await rewrite(db, fn, GUARD, '');
  await rewrite(db, 'demand_overridden_records_on_records', OVERRIDDEN_GUARD, 'else');
}

const RESTORED_GUARD = `
        if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
          return null;
        end if;`;

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const fn of GUARDED) await rewrite(db, fn, /\n(\s*)begin\n/, `\n$1begin${RESTORED_GUARD}\n`);
  await rewrite(
    db,
    'demand_overridden_records_on_records',
    /\n(\s*)else\n/,
    `\n$1elsif coalesce(current_setting('planning.skip_rollup', true), '') <> 'on' then\n`,
  );
  for (const trigger of TRIGGERS) {
    await sql.raw(`drop trigger ${trigger[0]} on demand_records`).execute(db);
    await sql.raw(createTrigger(trigger, false)).execute(db);
  }
}
