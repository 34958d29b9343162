import { link, mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';

/** What loading one actuals file did, by name (rows, inserted, updated, …), shown in the cycle log. */
export type LoadCounts = Record<string, number>;

/**
 * Loads one actuals file into the sales history, as `scope` (an admin, or the schedule's own
 * admin scope); throws (with a message an admin can act on) when the file is refused, having
 * written nothing.
 */
export type ActualsLoader = (file: {
  path: string;
  fileName: string;
  scope: AccessScope;
}) => Promise<LoadCounts>;

export const PROCESSED_DIR = 'processed';
export const FAILED_DIR = 'failed';

/** Names a pushed file may take: no path, no hidden file, a sane length. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,199}$/;

/** The files waiting in the feed folder, in the order the cycle takes them (by name). */
export async function waitingFeedFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A free name for `fileName` in `dir`: the name itself, else with -1, -2, … before its extension. */
async function freeName(dir: string, fileName: string): Promise<string> {
  const dot = fileName.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? fileName : `${stem}-${n}${extension}`;
    try {
      await stat(join(dir, candidate));
    } catch {
      return candidate;
    }
  }
}

async function moveInto(dir: string, sub: string, fileName: string): Promise<void> {
  const target = join(dir, sub);
  await mkdir(target, { recursive: true });
  await rename(join(dir, fileName), join(target, await freeName(target, fileName)));
}

export type FeedOutcome = {
  files: number;
  counts: LoadCounts;
  /** The file that was refused (moved to failed/) and why; the files after it wait for a rerun. */
  failure?: { fileName: string; message: string };
};

/**
 * Takes the waiting files in name order: each is loaded, then moved to processed/ (or failed/,
 * which stops the feed: a later week's actuals never go in before an earlier refused one).
 */
export async function takeFeed(
  dir: string,
  load: (file: { path: string; fileName: string }) => Promise<LoadCounts>,
): Promise<FeedOutcome> {
  const counts: LoadCounts = {};
  let files = 0;
  for (const fileName of await waitingFeedFiles(dir)) {
    let loaded: LoadCounts;
    try {
      loaded = await load({ path: join(dir, fileName), fileName });
    } catch (error) {
      await moveInto(dir, FAILED_DIR, fileName);
      return {
        files,
        counts,
        failure: { fileName, message: error instanceof Error ? error.message : String(error) },
      };
    }
    await moveInto(dir, PROCESSED_DIR, fileName);
    files += 1;
    for (const [name, value] of Object.entries(loaded)) counts[name] = (counts[name] ?? 0) + value;
  }
  return { files, counts };
}

/** Puts a pushed file in the feed folder under its own name; a waiting file of that name is a 409. */
export async function putFeedFile(dir: string, fileName: string, bytes: Buffer): Promise<void> {
  if (!FILE_NAME.test(fileName) || fileName.includes('..'))
    throw AppError.validation(
      'file name must be 1-200 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit',
      'file',
    );
  await mkdir(dir, { recursive: true });
  // Written under a hidden name first, so a run never takes a file half written; linked to its
  // name only if no file of that name is waiting (a rename would replace it).
  const partial = join(dir, `.${fileName}.${process.pid}.${Date.now()}.part`);
  await writeFile(partial, bytes, { flag: 'wx' });
  try {
    await link(partial, join(dir, fileName));
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST')
      throw new AppError('CONFLICT', `A file named ${fileName} is already waiting in the actuals feed`);
    throw error;
  } finally {
    await unlink(partial);
  }
}
