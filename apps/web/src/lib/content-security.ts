import { setNonce } from 'get-nonce';
import { z } from 'zod';

/**
 * The nonce the server's CSP allows inline <style> elements with: a fresh one is written into
 * index.html for each answer. Undefined under the Vite dev server (placeholder left, no CSP).
 */
export function cspStyleNonce(): string | undefined {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  return nonce && !nonce.startsWith('__') ? nonce : undefined;
}

/**
 * Makes the libraries live within the server's CSP (no eval, inline <style> only with the nonce).
 * main.tsx imports this module first: Zod decides at schema creation, i.e. as modules load.
 * AG Grid gets the nonce where it is set up (features/demand-planning/grid/grid-modules.ts).
 */
function prepareForContentSecurityPolicy(): void {
  // Zod compiles object parsers with `new Function` when it may; its probe alone is a CSP violation.
  z.config({ jitless: true });
  // react-remove-scroll (Radix dialogs and menus) injects a <style> element for its scroll lock.
  const nonce = cspStyleNonce();
  if (nonce) setNonce(nonce);
}

prepareForContentSecurityPolicy();
