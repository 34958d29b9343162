import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { putFeedFile, takeFeed, waitingFeedFiles } from './cycle-feed';

describe('the actuals feed folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ps-feed-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes files in name order, sums their counts and moves each to processed/, keeping names unique there', async () => {
    writeFileSync(join(dir, 'w47.csv'), 'b');
    writeFileSync(join(dir, 'w46.csv'), 'a');
    writeFileSync(join(dir, '.w48.csv.part'), 'half written');
    const seen: string[] = [];
    const load = async (file: { fileName: string; path: string }) => {
      seen.push(`${file.fileName}:${readFileSync(file.path, 'utf8')}`);
      return Promise.resolve({ rows: 2, updated: 1 });
    };
    expect(await takeFeed(dir, load)).toEqual({ files: 2, counts: { rows: 4, updated: 2 } });
    expect(seen).toEqual(['w46.csv:a', 'w47.csv:b']);
    // The same name again lands beside the first, not over it.
    writeFileSync(join(dir, 'w46.csv'), 'again');
    await takeFeed(dir, load);
    expect(readdirSync(join(dir, 'processed')).sort()).toEqual(['w46-1.csv', 'w46.csv', 'w47.csv']);
    expect(await waitingFeedFiles(dir)).toEqual([]);
  });

  it('stops at a refused file: it goes to failed/, later files wait', async () => {
    for (const name of ['1.csv', '2.csv', '3.csv']) writeFileSync(join(dir, name), name);
    const load = async (file: { fileName: string }) => {
      if (file.fileName === '2.csv') throw new Error('row 3: Units must be a number of at least 0');
      return Promise.resolve({ rows: 1 });
    };
    expect(await takeFeed(dir, load)).toEqual({
      files: 1,
      counts: { rows: 1 },
      failure: { fileName: '2.csv', message: 'row 3: Units must be a number of at least 0' },
    });
    expect(readdirSync(join(dir, 'processed'))).toEqual(['1.csv']);
    expect(readdirSync(join(dir, 'failed'))).toEqual(['2.csv']);
    expect(await waitingFeedFiles(dir)).toEqual(['3.csv']);
  });

  it('answers no files for a folder that does not exist yet', async () => {
    expect(await waitingFeedFiles(join(dir, 'not-yet'))).toEqual([]);
  });

  it('puts a pushed file under its name, never over a waiting one, and leaves no partial file', async () => {
    await putFeedFile(join(dir, 'feed'), 'w49.csv', Buffer.from('x'));
    await expect(putFeedFile(join(dir, 'feed'), 'w49.csv', Buffer.from('y'))).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(readdirSync(join(dir, 'feed'))).toEqual(['w49.csv']);
    expect(readFileSync(join(dir, 'feed', 'w49.csv'), 'utf8')).toBe('x');
    await expect(putFeedFile(dir, '../up.csv', Buffer.from('z'))).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });
});
