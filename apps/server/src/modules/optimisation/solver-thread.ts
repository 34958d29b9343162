import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { NetworkInstance, SolveResult } from '@ps/domain';
import type { SolveLimits, SolveProgress } from './highs-solve';

/**
 * Beyond the solver's own time limit, how long reading the model and the solution may take
 * before the thread is stopped: a 250,000-column model reads and writes in a few seconds.
 */
const GRACE_MS = 60_000;

type WorkerMessage =
  | { type: 'progress'; progress: SolveProgress }
  | { type: 'result'; result: SolveResult }
  | { type: 'error'; message: string };

/**
 * Solves on a worker thread of its own, so the server's event loop keeps answering requests while
 * HiGHS (synchronous WebAssembly) works; the thread ends with the solve. Started through tsx like
 * the forecast pool, since the server runs from TypeScript sources.
 */
export function solveOnWorker(
  instance: NetworkInstance,
  limits: SolveLimits,
  onProgress: (progress: SolveProgress) => void,
): Promise<SolveResult> {
  const entry = fileURLToPath(new URL('./solver.worker.ts', import.meta.url));
  const tsxRegister = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsxRegister)}).register(); require(${JSON.stringify(entry)});`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: { instance, limits } });
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      action();
      void worker.terminate();
    };
    const guard = setTimeout(
      () =>
        settle(() =>
          reject(new Error(`The solver did not stop within its ${limits.timeLimitSeconds} s time limit`)),
        ),
      limits.timeLimitSeconds * 1000 + GRACE_MS,
    );
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'result') settle(() => resolve(message.result));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`The solver thread stopped unexpectedly (exit code ${code})`))),
    );
  });
}
