import type { TestProject } from 'vitest/node';
import { ensureChromium } from './support/chromium';
import { startServerProcess } from './support/server-process';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** One server for all browser tests; the web app must be built first (npm test does that). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureChromium();
  const server = await startServerProcess();
  project.provide('baseUrl', server.baseUrl);
  return server.stop;
}
