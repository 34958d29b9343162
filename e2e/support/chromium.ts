import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Browser downloads fail on these machines, so tests use Debian's Chromium and install it when missing. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  console.error(`Chromium not found at ${CHROMIUM_PATH}; installing Debian's chromium package...`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium is still missing at ${CHROMIUM_PATH} after apt-get install`);
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
