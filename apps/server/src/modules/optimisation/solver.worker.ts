import { parentPort, workerData } from 'node:worker_threads';
import type { NetworkInstance } from '@ps/domain';
import { solveInstance, type SolveLimits } from './highs-solve';

/** One solve per worker thread (solver-thread.ts): HiGHS blocks its thread until it stops. */
const { instance, limits } = workerData as { instance: NetworkInstance; limits: SolveLimits };
const port = parentPort!;
solveInstance(instance, limits, (progress) => port.postMessage({ type: 'progress', progress }))
  .then((result) => port.postMessage({ type: 'result', result }))
  .catch((error: unknown) =>
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
