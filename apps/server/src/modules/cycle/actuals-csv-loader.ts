import { readFile, stat } from 'node:fs/promises';
import { isSunday } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ActualsLoader } from './cycle-feed';
import { knownPids, upsertSalesHistory, type ActualsRow } from './cycle.repository';

/** Headers the file's columns may carry, matched case-insensitively. */
const COLUMNS = {
  pid: ['pid', 'sku', 'product'],
  week: ['week', 'week_start', 'weekstart'],
  units: ['units', 'actual_units', 'act_bkg_units'],
} as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Refusals listed in one message; the rest are counted. */
const REFUSALS_SHOWN = 5;

function splitLine(line: string): string[] {
  return line.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
}

/**
 * Reads a sales-history CSV (PID, Week as the week's Sunday yyyy-mm-dd, Units) whole and checks
 * every row before writing any; answers the rows or throws naming the first refused rows.
 */
export function parseActualsCsv(text: string): ActualsRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitLine(lines[0] ?? '').map((name) => name.toLowerCase());
  const index = (names: readonly string[]) => header.findIndex((name) => names.includes(name));
  const at = { pid: index(COLUMNS.pid), week: index(COLUMNS.week), units: index(COLUMNS.units) };
  const missing = Object.entries(at)
    .filter(([, i]) => i < 0)
    .map(([name]) => name);
  if (missing.length > 0)
    throw new Error(`The header has no ${missing.join(', ')} column (PID, Week, Units)`);
  const rows: ActualsRow[] = [];
  const refusals: string[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const cells = splitLine(line);
    const row = i + 2;
    const pid = cells[at.pid] ?? '';
    const week = cells[at.week] ?? '';
    const units = Number(cells[at.units]);
    if (pid === '') refusals.push(`row ${row}: PID is empty`);
    else if (!ISO_DATE.test(week) || Number.isNaN(Date.parse(`${week}T00:00:00Z`)))
      refusals.push(`row ${row}: Week must be a date as yyyy-mm-dd`);
    else if (!isSunday(new Date(`${week}T00:00:00Z`)))
      refusals.push(`row ${row}: Week must be a Sunday (weeks start on Sunday)`);
    else if (cells[at.units] === '' || !Number.isFinite(units) || units < 0)
      refusals.push(`row ${row}: Units must be a number of at least 0`);
    else rows.push({ pid, weekStart: week, units });
  });
  if (refusals.length > 0) throw new Error(refusalMessage(refusals));
  return rows;
}

function refusalMessage(refusals: readonly string[]): string {
  const more = refusals.length - REFUSALS_SHOWN;
  return `${refusals.slice(0, REFUSALS_SHOWN).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/**
 * The cycle's own actuals loader: a small CSV reader that upserts sales history, all or nothing.
 * Any `ActualsLoader` can take its place (the bulk sales-history load, when there is one).
 */
export function csvActualsLoader(db: Kysely<Database>, maxBytes: number): ActualsLoader {
  return async ({ path }) => {
    const { size } = await stat(path);
    if (size > maxBytes) throw new Error(`The file is larger than the ${maxBytes} bytes the feed takes`);
    const rows = parseActualsCsv(await readFile(path, 'utf8'));
    const keys = new Set<string>();
    const duplicates = rows.filter((row) => {
      const key = `${row.pid}/${row.weekStart}`;
      const seen = keys.has(key);
      keys.add(key);
      return seen;
    });
    if (duplicates.length > 0)
      throw new Error(`${duplicates[0]?.pid} has the week ${duplicates[0]?.weekStart} twice`);
    const known = await knownPids(db, [...new Set(rows.map((row) => row.pid))]);
    const unknown = [...new Set(rows.filter((row) => !known.has(row.pid)).map((row) => row.pid))];
    if (unknown.length > 0) throw new Error(refusalMessage(unknown.map((pid) => `no product ${pid}`)));
    const { inserted, updated } = await upsertSalesHistory(db, rows);
    return { rows: rows.length, inserted, updated, unchanged: rows.length - inserted - updated };
  };
}
