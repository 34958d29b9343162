import type { ImportRow } from '@ps/domain';
import type { ReadLimits } from './read-spreadsheet';

/**
 * Milliseconds the worker spent reading the file into cells, and applying the rules to them; the
 * largest heap it was seen to use meanwhile (MB).
 */
export type ParseSteps = { readMs: number; validateMs: number; parseHeapMb?: number };

/** A parse job: the file travels as a transferred ArrayBuffer, not a copy. */
export type ParseJob = { fileName: string; bytes: ArrayBuffer; limits: ReadLimits; today: string };

/**
 * What the worker answers, in order: the valid rows in chunks (each sent once the parser has taken
 * the previous one, so neither thread holds the whole file's rows twice), then the validation with
 * its rows left out, or the error that stopped it.
 */
export type ParseMessage =
  | { kind: 'rows'; rows: ImportRow[] }
  | { kind: 'done'; result: unknown; steps: ParseSteps }
  | { kind: 'error'; error: string };

/** The parser's answer to a chunk of rows: send the next. */
export const NEXT_ROWS = 'next-rows';
