import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/test/support/free-port';

export type RunningServer = { baseUrl: string; stop: () => Promise<void> };

/**
 * Starts the suite as `npm start` would (the same entry point), on a free port over a fresh
 * embedded database, and waits until /health answers.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'planning-suite-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      PGLITE_DATA_DIR: join(dataDir, 'pglite'),
      DATABASE_URL: '',
      PUBLIC_URL: baseUrl,
      SEED_PRODUCTS: '60',
      SEED_WEEKS: '26',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // E2E_SERVER_START_MS: a shared, heavily loaded machine may need longer than two minutes.
  const startMs = Number(process.env.E2E_SERVER_START_MS ?? 120_000);
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`Server exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not become healthy within ${startMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
