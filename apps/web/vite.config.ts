import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Route screens keep a chunk of their own (a screen that fails to download shows the error screen). */
const SCREEN = /\/[A-Z]\w*(Page|Layout)\.tsx$/;
/**
 * What the entry (src/main.tsx) imports, Vite's preload helper included: one small chunk of its own.
 * Grouped with the app's code it would tie the entry to chunks that import the framework, and the
 * entry must start its downloads before any of that has arrived.
 */
const ENTRY_MODULE =
  /\/src\/(app\/screens\.ts|lib\/auth\/(auth-config-request|token-store|storage-keys)\.ts)$|vite\/preload-helper/;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/oidc': 'http://127.0.0.1:3000',
      '/health': 'http://127.0.0.1:3000',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Grouped chunks are named by their group alone (their automatic names list every screen).
        chunkFileNames: (chunk) => `assets/${chunk.name.split('~')[0]}-[hash].js`,
        codeSplitting: {
          groups: [
            // Zod decides when a schema is created whether it may compile parsers with eval, which
            // the CSP forbids; the module that turns that off (lib/content-security.ts) shares Zod's
            // chunk so it runs before any other chunk creates a schema.
            {
              name: 'zod',
              test: (id) => id.includes('/node_modules/zod/') || id.endsWith('/src/lib/content-security.ts'),
              priority: 30,
            },
            { name: 'entry', test: ENTRY_MODULE, priority: 40 },
            // Each language but English (bundled, the fallback) is one chunk, loaded when chosen.
            {
              name: (id) => {
                const language = /\/src\/i18n\/locales\/(\w+)\//.exec(id)?.[1];
                return language && language !== 'en' ? `locale-${language}` : null;
              },
              priority: 30,
            },
            /*
             * A screen's first load fetched 50–60 files, most of them under 5 kB: the browser asks
             * for six at a time per server, so they came in ten rounds. What
             * every screen needs is now a few chunks: the framework, the UI kit, and the app's
             * shared code grouped by the screens that use it (small groups merged, so a screen
             * may load a little it does not run).
             */
            {
              name: 'framework',
              test: /node_modules\/(react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next|use-sync-external-store|oidc-client-ts|jwt-decode)\//,
              priority: 25,
            },
            {
              name: 'ui',
              test: /node_modules\/(radix-ui|@radix-ui|@floating-ui|lucide-react|tailwind-merge|clsx|class-variance-authority|react-remove-scroll[^/]*|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|tslib)\//,
              priority: 24,
            },
            {
              name: 'app',
              test: (id) =>
                /\/apps\/web\/src\/(components|lib|i18n\/[^/]+\.ts|features\/(auth|settings|shell|errors|notifications))\/|\/packages\/domain\//.test(
                  id,
                ) && !SCREEN.test(id),
              entriesAware: true,
              entriesAwareMergeThreshold: 40_000,
              priority: 5,
            },
          ],
        },
      },
    },
  },
});
