import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../../..');
const directory = mkdtempSync(join(tmpdir(), 'forecast-calibrate-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Four noisy weekly series of 110 weeks: enough for origins 1–13 at horizon 4 (13·4 + 4 + 52 = 108). */
function writeInput(): string {
  const input = join(directory, 'train.csv');
  const weeks = 110;
  const header = Array.from({ length: weeks + 1 }, (_, i) => `"V${i + 1}"`).join(',');
  const rows = [0, 1, 2, 3].map((s) => {
    const values = Array.from({ length: weeks }, (_, t) =>
      (100 + 10 * s + 0.2 * t + 5 * Math.sin(t * (0.7 + 0.3 * s)) + ((t * (s + 3)) % 7)).toFixed(2),
    );
    return [`"S${s}"`, ...values.map((v) => `"${v}"`)].join(',');
  });
  writeFileSync(input, [header, ...rows].join('\n') + '\n');
  return input;
}

const calibrate = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'packages/forecast/src/cli/calibrate.ts', ...args], {
    cwd: repoRoot,
  });

describe('npm run forecast:calibrate (end to end)', () => {
  it('prints, per exponent and level, the pooled factor, the ten origins left out and the check origins', async () => {
    const input = writeInput();
    const { stdout } = await calibrate([
      '--input',
      input,
      '--horizon',
      '4',
      '--season-length',
      '52',
      '--check-origins',
      '11',
      '--exponents',
      '0,0.5',
      '--tuning',
      '{"intervalSpread":{"recentPeriods":13,"exponent":0.3}}',
    ]);
    const tenPercents = String.raw`(\d+\.\d / ){9}\d+\.\d`;
    for (const level of ['80', '95']) {
      expect(stdout).toContain(`${level}% interval; design origins 1,2,3,4,5,6,7,8,9,10, check origins 11\n`);
      // The asked exponents and the tuning's own (0.3 here), in order.
      const rows = [...stdout.matchAll(new RegExp(String.raw`exponent ([\d.]+)( \(tuning\))?: factor`, 'g'))];
      expect(rows.map((r) => r[1])).toEqual(['0', '0.3', '0.5', '0', '0.3', '0.5']);
      expect(rows.filter((r) => r[2]).map((r) => r[1])).toEqual(['0.3', '0.3']);
      expect(stdout).toMatch(
        new RegExp(
          String.raw`exponent 0\.3 \(tuning\): factor \d+\.\d{3}; coverage ${tenPercents}; left out ${tenPercents}, ` +
            String.raw`mean \|left out − ${level}\| \d+\.\d{2}, \d+/10 within ±3; MSIS \d+\.\d{2}; check \d+\.\d, MSIS \d+\.\d{2}\n`,
        ),
      );
    }
  }, 120_000);

  it('refuses exponents that are not non-negative numbers', async () => {
    await expect(calibrate(['--input', writeInput(), '--exponents', '0,-1'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--exponents takes non-negative numbers, got "-1"/) as unknown,
    });
  }, 60_000);

  it('refuses check origins inside the design set', async () => {
    await expect(calibrate(['--input', writeInput(), '--check-origins', '10'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--check-origins takes origins after the design set/) as unknown,
    });
  }, 60_000);
});
