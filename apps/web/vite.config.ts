import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
    rollupOptions: {
      output: {
        // Zod decides when a schema is created whether it may compile parsers with eval, which the
        // CSP forbids; the module that turns that off (lib/content-security.ts) shares Zod's chunk
        // so it runs before any other chunk creates a schema.
        manualChunks(id) {
          if (id.includes('/node_modules/zod/') || id.endsWith('/src/lib/content-security.ts')) return 'zod';
          return undefined;
        },
      },
    },
  },
});
