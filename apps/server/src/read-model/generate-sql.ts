import {
  KEPT_TABLES,
  aggregateSql,
  columnsOf,
  isGrouped,
  rowsSql,
  type Differences,
  type GroupedTable,
  type Measure,
} from './registry';

type Op = 'INSERT' | 'UPDATE' | 'DELETE';

/**
 * The SQL of the read model's generated machinery, from the registry's declarations: for each
 * grouped kept table with `differences` declared, its difference trigger (a statement-level
 * function over the transition tables of the table it is built from, and its insert, update and
 * delete triggers) and its rebuild function. `npm run read-model:generate` writes the statements
 * into a migration (migrations never import this code); a test fails when that migration and the
 * registry disagree.
 *
 * Two ways of keeping a table:
 * - a table whose measures are the key's one row (`own`) holds the source rows that meet its
 *   condition: an update deletes the keys that left it and upserts the rows that are in it;
 * - a table of sums, counts and latest values adds each statement's signed differences (the old
 *   rows count -1, the new +1, an updated row that changed nothing the table reads counts for
 *   neither) to its rows, in key order; a key whose latest value may have gone back (an old row
 *   held a later value than any new row of the key) is recounted from the source, and keys whose
 *   row count fell to zero are deleted (unless the table keeps empty rows).
 * Each statement runs through EXECUTE, planned for the rows of the call (a cached plan for one
 * call's transition table must never serve another's).
 */

/** The switch set-based writers set to stand the records' kept-table triggers aside (bulk-apply.ts). */
const BULK_SWITCH = `coalesce(current_setting('planning.bulk_write', true), '') <> 'on'`;

/** A difference trigger's source split into the table it is fired by, its alias and the rest (joins). */
function sourceParts(table: GroupedTable): { table: string; alias: string; rest: string } {
  const match = /^(\w+) (\w+)\b([\s\S]*)$/.exec(table.source);
  if (!match)
    throw new Error(`${table.name}: source "${table.source}" does not start with a table and alias`);
  return { table: match[1]!, alias: match[2]!, rest: match[3]! };
}

const list = (items: readonly string[], sep = ', ') => items.join(sep);
const tuple = (alias: string, columns: readonly string[]) =>
  `(${columns.map((c) => `${alias}.${c}`).join(', ')})`;

/** The sign column the differences carry (old rows -1, new rows +1). */
const SIGN = 'change_sign';

/**
 * Whether a pair (old row o, new row n of one key) changed what the table reads: every column by
 * default; with `compare` declared, those columns, or a latest value (`latest`) that went back
 * (a later value gone needs the recount).
 */
function changedSql(d: Differences, latest: readonly string[]): string {
  if (!d.compare) return 'o is distinct from n';
  return [
    `${tuple('o', d.compare)} is distinct from ${tuple('n', d.compare)}`,
    ...latest.map((c) => `(o.${c} is not null and (n.${c} is null or o.${c} > n.${c}))`),
  ].join('\n          or ');
}

/**
 * A transition table's rows as changes of the source: `old_rows` signed -1, `new_rows` +1; on
 * update, a pair (same key) that changed nothing the table reads counts for neither.
 */
function changesSql(op: Op, d: Differences, changed: string): string {
  const on = (a: string, b: string) => d.key.map((c) => `${a}.${c} = ${b}.${c}`).join(' and ');
  if (op === 'INSERT') return `(select 1 as ${SIGN}, n.* from new_rows n)`;
  if (op === 'DELETE') return `(select -1 as ${SIGN}, o.* from old_rows o)`;
  return `(select -1 as ${SIGN}, o.* from old_rows o left join new_rows n on ${on('n', 'o')}
        where n.${d.key[0]} is null or ${changed}
      union all
      select 1 as ${SIGN}, n.* from new_rows n left join old_rows o on ${on('o', 'n')}
        where o.${d.key[0]} is null or ${changed})`;
}

/** The record column a latest-value measure reads (`r.last_updated_at` → last_updated_at). */
function latestColumn(table: GroupedTable, m: Measure): string {
  const { alias } = sourceParts(table);
  const match = new RegExp(`^${alias}\\.(\\w+)$`).exec(m.of);
  if (!match) throw new Error(`${table.name}.${m.column}: a latest value must read one column of ${alias}`);
  return match[1]!;
}

/** A measure's difference over signed source rows (alias `a` carries the sign). */
function differenceSql(m: Measure, a: string): string {
  const filter = (extra?: string) => {
    const parts = [m.filter, extra].filter((p): p is string => p !== undefined);
    return parts.length > 0 ? ` filter (where ${parts.join(' and ')})` : '';
  };
  switch (m.combine) {
    case 'count':
      return `coalesce(sum(${a}.${SIGN})${filter()}, 0)`;
    case 'count of values':
      return `coalesce(sum(${a}.${SIGN})${filter(`${m.of} is not null`)}, 0)`;
    case 'sum':
      return `coalesce(sum(${a}.${SIGN} * (${m.of}))${filter()}, 0)`;
    case 'max':
      return `max(${m.of})${filter(`${a}.${SIGN} = 1`)}`;
    case 'distinct count':
    case 'min':
    case 'own':
      throw new Error(`${m.column}: a ${m.combine} measure has no difference (the table is recounted)`);
  }
}

/** The measure counting a key's source rows, when its emptied keys are deleted. */
function rowCountOf(table: GroupedTable): Measure | undefined {
  const column = table.differences?.rowCount;
  if (column === undefined) return undefined;
  const measure = table.measures.find((m) => m.column === column);
  if (!measure) throw new Error(`${table.name}: the row count ${column} is not a measure`);
  return measure;
}

function summedStatements(table: GroupedTable, op: Op): string[] {
  const d = table.differences!;
  const { alias, rest } = sourceParts(table);
  const grain = table.grain.map((g) => g.column);
  const latest = table.measures.filter((m) => m.combine === 'max');
  const summed = table.measures.filter((m) => m.combine !== 'max');
  const count = rowCountOf(table);
  const changed = changedSql(
    d,
    latest.map((m) => latestColumn(table, m)),
  );
  const from = `from ${changesSql(op, d, changed)} ${alias}${rest}
    where ${table.where ?? 'true'}
    group by ${list(table.grain.map((g) => g.of))}`;
  const changes = `select ${list([
    ...table.grain.map((g) => `${g.of} as ${g.column}`),
    ...table.measures.map((m) => `${differenceSql(m, alias)} as ${m.column}`),
    ...latest.map((m) => `max(${m.of}) filter (where ${alias}.${SIGN} = -1) as ${m.column}_before`),
  ])}
    ${from}`;
  const moved = [
    ...summed.map((m) => `${m.column} <> 0`),
    ...latest.map((m) => `${m.column} is not null`),
  ].join(' or ');
  const dropped =
    latest.length === 0
      ? 'false'
      : latest
          .map(
            (m) =>
              `(${m.column}_before is not null and (${m.column} is null or ${m.column}_before > ${m.column}))`,
          )
          .join(' or ');
  const set = [
    ...summed.map((m) => `${m.column} = kept.${m.column} + excluded.${m.column}`),
    ...latest.map((m) => `${m.column} = greatest(kept.${m.column}, excluded.${m.column})`),
  ];
  const removed = count ? `coalesce(bool_or(${count.column} < 0), false)` : 'false';
  const statements = [
    `execute $q$
  with changes as materialized (
    ${changes}),
  applied as (
    insert into ${table.name} as kept (${list(columnsOf(table))})
    select ${list(columnsOf(table))} from changes
    where ${moved}
    order by ${list(grain)}
    on conflict (${list(grain)}) do update set
      ${list(set, ',\n      ')})
  select ${removed}, coalesce(bool_or(${dropped}), false) from changes$q$ into removed, dropped;`,
  ];
  if (count) {
    statements.push(`if removed then
      execute $q$delete from ${table.name} where ${count.column} = 0$q$;
    end if;`);
  }
  if (latest.length > 0 && op === 'UPDATE' && d.compare) {
    statements.push(stampsStatement(table, changed));
  }
  if (latest.length > 0 && op !== 'INSERT') {
    // Recounted from the source, the keys whose latest value may have gone back.
    const inKey = table.grain.map((g) => `${g.of} = kept.${g.column}`).join(' and ');
    const recount = latest.map(
      (m) => `${m.column} = (select max(${m.of}) from ${table.source}
      where ${table.where ?? 'true'} and ${inKey})`,
    );
    statements.push(`if dropped then
      execute $q$
  update ${table.name} kept set ${list(recount, ',\n    ')}
  from (select * from (${changes}) c where ${dropped}) k
  where ${tuple('kept', grain)} = ${tuple('k', grain)}$q$;
    end if;`);
  }
  return statements;
}

/**
 * The pairs that changed only latest values, forward: those values moved onto their keys' rows
 * where later, rows locked in key order (as the upsert locks them); no sums paired.
 */
function stampsStatement(table: GroupedTable, changed: string): string {
  const d = table.differences!;
  const { alias, rest } = sourceParts(table);
  const grain = table.grain.map((g) => g.column);
  const latest = table.measures.filter((m) => m.combine === 'max');
  const columns = latest.map((m) => latestColumn(table, m));
  const on = d.key.map((c) => `o.${c} = n.${c}`).join(' and ');
  const later = latest
    .map((m) => `kept.${m.column} is null or kept.${m.column} < s.${m.column}`)
    .join(' or ');
  return `execute $q$
  with stamps as (
    select ${list([...table.grain.map((g) => `${g.of} as ${g.column}`), ...latest.map((m) => `max(${m.of}) as ${m.column}`)])}
    from (select n.* from new_rows n join old_rows o on ${on}
      where not (${changed})
        and ${tuple('n', columns)} is distinct from ${tuple('o', columns)}) ${alias}${rest}
    where ${table.where ?? 'true'}
    group by ${list(table.grain.map((g) => g.of))}),
  locked as (
    select ${list([...grain.map((c) => `kept.${c}`), ...latest.map((m) => `s.${m.column}`)])}
    from ${table.name} kept join stamps s on ${tuple('kept', grain)} = ${tuple('s', grain)}
    where ${later}
    order by ${list(grain.map((c) => `kept.${c}`))}
    for update of kept)
  update ${table.name} kept set ${list(latest.map((m) => `${m.column} = greatest(kept.${m.column}, l.${m.column})`))}
  from locked l where ${tuple('kept', grain)} = ${tuple('l', grain)}$q$;`;
}

/**
 * A table with measures no difference gives (distinct counts) is recounted for the keys the
 * statement's changed rows reach, one key at a time through the source's index.
 */
function recountStatements(table: GroupedTable, op: Op): string[] {
  const d = table.differences!;
  const { alias, rest } = sourceParts(table);
  const grain = table.grain.map((g) => g.column);
  const count = rowCountOf(table);
  if (!count) throw new Error(`${table.name}: a recounted table needs a count of its rows`);
  const keys = `select distinct ${list(table.grain.map((g) => `${g.of} as ${g.column}`))}
    from ${changesSql(op, d, changedSql(d, []))} ${alias}${rest}
    where ${table.where ?? 'true'}`;
  const inKey = (k: string) => table.grain.map((g) => `${g.of} = ${k}.${g.column}`).join(' and ');
  const measures = table.measures.map((m) => m.column);
  return [
    `execute $q$select exists (${keys})$q$ into recount;`,
    `if recount then
      execute $q$
  insert into ${table.name} as kept (${list(columnsOf(table))})
  select ${list([...grain.map((c) => `k.${c}`), ...measures.map((c) => `s.${c}`)])}
  from (${keys} order by ${list(grain)}) k
  cross join lateral (
    select ${list(table.measures.map((m) => `${aggregateSql(m)} as ${m.column}`))}
    from ${table.source} where ${table.where ?? 'true'} and ${inKey('k')}) s
  where s.${count.column} > 0
  on conflict (${list(grain)}) do update set ${list(measures.map((c) => `${c} = excluded.${c}`))}$q$;
      execute $q$
  delete from ${table.name} kept where ${tuple('kept', grain)} in (${keys})
    and not exists (select 1 from ${table.source} where ${table.where ?? 'true'} and ${inKey('kept')})$q$;
    end if;`,
  ];
}

const isRecounted = (table: GroupedTable) => table.measures.some((m) => m.combine === 'distinct count');

function ownStatements(table: GroupedTable, op: Op): string[] {
  const { alias, rest } = sourceParts(table);
  const grain = table.grain.map((g) => g.column);
  const measures = table.measures.map((m) => m.column);
  const where = table.where ?? 'true';
  const keysOf = (rows: string) =>
    `select ${list(table.grain.map((g) => `${g.of} as ${g.column}`))} from ${rows} ${alias}${rest} where ${where}`;
  const upsert = `execute $q$insert into ${table.name} as kept (${list(columnsOf(table))})
    select ${list([...table.grain.map((g) => g.of), ...table.measures.map((m) => m.of)])}
    from new_rows ${alias}${rest} where ${where}
    order by ${list(table.grain.map((g) => g.of))}
    on conflict (${list(grain)}) do update set ${list(measures.map((c) => `${c} = excluded.${c}`))}
    where ${tuple('kept', measures)} is distinct from ${tuple('excluded', measures)}$q$;`;
  const remove = (keys: string) => `execute $q$delete from ${table.name} kept using (${keys}) gone
    where ${tuple('kept', grain)} = ${tuple('gone', grain)}$q$;`;
  if (op === 'INSERT') return [upsert];
  if (op === 'DELETE') return [remove(keysOf('old_rows'))];
  return [remove(`${keysOf('old_rows')} except ${keysOf('new_rows')}`), upsert];
}

const isOwn = (table: GroupedTable) => table.measures.every((m) => m.combine === 'own');

/** The difference trigger function of `tables` (those declaring one function), in their order. */
export function differenceFunctionSql(tables: readonly GroupedTable[]): string {
  const d = tables[0]?.differences;
  if (!d) throw new Error('no table declares the differences');
  const statementsOf = (table: GroupedTable, op: Op) =>
    isOwn(table)
      ? ownStatements(table, op)
      : isRecounted(table)
        ? recountStatements(table, op)
        : summedStatements(table, op);
  const branch = (op: Op) => {
    const rows = op === 'DELETE' ? 'old_rows' : 'new_rows';
    // An upsert that only updated still fires the insert trigger, with no rows: planning the
    // statements for nothing costs as much as running them.
    return `if not exists (select 1 from ${rows}) then
      return null;
    end if;
    ${tables.flatMap((table) => statementsOf(table, op)).join('\n    ')}`;
  };
  return `create or replace function ${d.fn}() returns trigger language plpgsql as $fn$
  declare
    removed boolean;
    dropped boolean;
    recount boolean;
  begin
    if tg_op = 'INSERT' then
    ${branch('INSERT')}
    elsif tg_op = 'UPDATE' then
    ${branch('UPDATE')}
    else
    ${branch('DELETE')}
    end if;
    return null;
  end $fn$`;
}

/** The insert, update and delete triggers that run it (the records' stand aside for bulk writes). */
export function differenceTriggersSql(table: GroupedTable): string[] {
  const d = table.differences!;
  const { table: source } = sourceParts(table);
  const when = source === 'demand_records' ? `when (${BULK_SWITCH}) ` : '';
  const events = [
    ['delete', 'referencing old table as old_rows'],
    ['insert', 'referencing new table as new_rows'],
    ['update', 'referencing old table as old_rows new table as new_rows'],
  ] as const;
  return events.flatMap(([event, referencing]) => [
    `drop trigger if exists ${d.trigger}_${event} on ${source}`,
    `create trigger ${d.trigger}_${event} after ${event} on ${source}
  ${referencing} for each statement ${when}execute function ${d.fn}()`,
  ]);
}

/** The rebuild function of `table`: every row recomputed from its source (the invariant's rows). */
export function rebuildFunctionSql(table: GroupedTable): string {
  return `create or replace function rebuild_${table.name}() returns void language plpgsql as $fn$
  begin
    delete from ${table.name};
    insert into ${table.name} (${list(columnsOf(table))})
  ${rowsSql(table)};
  end $fn$`;
}

/** The columns a measure's table must have: added when missing (a new catalogue field, say). */
function columnsSql(table: GroupedTable): string[] {
  return table.measures.flatMap((m) => {
    const type = m.type ?? defaultType(m);
    if (type === undefined) return [];
    const fill =
      m.combine === 'max' || m.combine === 'min' || m.combine === 'own' ? '' : ' not null default 0';
    return [`alter table ${table.name} add column if not exists ${m.column} ${type}${fill}`];
  });
}

function defaultType(m: Measure): string | undefined {
  switch (m.combine) {
    case 'count':
    case 'count of values':
    case 'distinct count':
      return 'bigint';
    case 'sum':
      return 'numeric';
    case 'max':
    case 'min':
    case 'own':
      return undefined;
  }
}

/** The generated tables, in the order their statements run (a source's table before those built from it). */
export const generatedTables = (tables: readonly GroupedTable[]): GroupedTable[] =>
  tables.filter((t) => t.differences !== undefined);

/** Every statement of the generated migration for `tables`: one trigger function per declared `fn`. */
export function readModelStatements(
  tables: readonly GroupedTable[] = KEPT_TABLES.filter(isGrouped),
): string[] {
  const generated = generatedTables(tables);
  const functions = [...new Set(generated.map((t) => t.differences!.fn))];
  return functions.flatMap((fn) => {
    const kept = generated.filter((t) => t.differences!.fn === fn);
    return [
      ...kept.flatMap(columnsSql),
      differenceFunctionSql(kept),
      ...differenceTriggersSql(kept[0]!),
      ...kept.map(rebuildFunctionSql),
    ];
  });
}

/** A statement as a template literal's text (backslashes, backticks and `${` escaped). */
const templateText = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** The generated migration's TypeScript source (unformatted: the writer runs prettier on it). */
export function readModelMigrationSource(statements: readonly string[] = readModelStatements()): string {
  return `// Generated by \`npm run read-model:generate\` from apps/server/src/read-model/registry.ts: do not edit.
import { sql, type Kysely } from 'kysely';

/**
 * The read model's generated machinery: each declared kept table's columns, difference trigger
 * (function and triggers) and rebuild function, as the registry declares them when this was
 * generated. A change to the registry is a new generated migration.
 */
const STATEMENTS: readonly string[] = [
${statements.map((s) => `  \`${templateText(s)}\`,`).join('\n')}
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('a generated read-model migration cannot be undone: restore a backup taken before it');
}
`;
}
