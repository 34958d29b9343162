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

/** Four noisy weekly series of 110 weeks: enough for origins 1–6 at horizon 4 (6·4 + 4 + 52 = 80). */
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
  it('prints the pooled factors, each origin with its left-out coverage, and the check origins', async () => {
    const input = writeInput();
    const { stdout } = await calibrate([
      '--input',
      input,
      '--horizon',
      '4',
      '--season-length',
      '52',
      '--check-origins',
      '6',
    ]);
    // 4 series × 4 steps × 5 design origins = 80 errors at most (steps with no spread are skipped).
    expect(stdout).toMatch(/80% interval: pooled factor \d+\.\d{3} over \d+ errors/);
    expect(stdout).toMatch(/95% interval: pooled factor \d+\.\d{3} over \d+ errors/);
    expect(stdout).toMatch(/origin 5: own factor .* MSIS \d+\.\d{3}, left out \d+\.\d%/);
    expect(stdout).toMatch(/origin 6 \(check\): own factor .* coverage \d+\.\d% MSIS \d+\.\d{3}\n/);
    expect(stdout).toMatch(/mean \|left-out coverage − 80\| = \d+\.\d{2} points/);
  }, 120_000);

  it('refuses check origins inside the design set', async () => {
    await expect(calibrate(['--input', writeInput(), '--check-origins', '3'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--check-origins takes origins after the design set/) as unknown,
    });
  }, 60_000);
});
