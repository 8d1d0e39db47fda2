import { defineConfig } from 'vite';

/**
 * The UI is served by the core at /ui/ (main/server/routes/ui-routes.ts), so assets are built
 * for that base. Vite's own transformer handles TSX with the automatic JSX runtime; no plugin.
 */
export default defineConfig({
  root: 'renderer',
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      onwarn(warning, warn) {
        // TanStack Query marks its modules "use client" for React server components; this UI
        // has none, so the directive means nothing in its bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    // `npm run dev:ui`: point RENDER_DESK_URL at a running core; the dev server proxies the API.
    proxy: {
      '/v1': {
        target: process.env.RENDER_DESK_URL ?? 'http://127.0.0.1:5317',
        changeOrigin: false,
      },
    },
  },
});
