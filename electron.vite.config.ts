import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { bridgeNames } from './src/shared/ipc/contract.js';

export default defineConfig({
  main: {
    build: {
      // Native modules (better-sqlite3, keytar) and the rest of node_modules stay external,
      // except the pure-JavaScript libraries every start loads: bundled, they are read as one
      // file instead of hundreds (typebox alone is 709 modules), which is most of a cold start.
      externalizeDeps: { exclude: ['typebox', 'undici', 'decimal.js', 'csv-stringify'] },
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/shell/index.ts'),
          // The browser host: the same services under plain Node (`npm run serve`), bundled so it
          // starts without transpiling TypeScript on the fly.
          serve: resolve(import.meta.dirname, 'src/main/host/serve.ts'),
          // The store's read worker (src/main/store/read-worker.ts): a thread's own entry, found
          // beside the bundle that starts it.
          'read-worker': resolve(import.meta.dirname, 'src/main/store/read-worker.thread.ts'),
          // The upgrade's realized P&L backfill (src/main/pnl/backfill-worker.ts), likewise.
          'realized-backfill': resolve(import.meta.dirname, 'src/main/pnl/backfill.thread.ts'),
          // The store's migrations off the main thread (src/main/store/migrate-worker.ts).
          'store-migrate': resolve(import.meta.dirname, 'src/main/store/migrate.thread.ts'),
        },
        output: {
          // Shared code in chunks/ below the entries: read-worker.ts finds its entry from there.
          chunkFileNames: 'chunks/[name]-[hash].js',
          // undici and the modules that import it in a chunk of their own: the start's early
          // answers (root/early.ts) and the bridge then do not wait for its 1 MB to run.
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              {
                name: 'exchange-client',
                test: /node_modules[\\/]undici[\\/]|src[\\/]main[\\/]client[\\/](client|pool)\.ts$/,
              },
            ],
          },
        },
      },
    },
  },
  preload: {
    // The channel and event names, read off the contract: the preload checks calls against
    // them without bundling the contract's schemas (src/preload/names.ts).
    define: { __BETDESK_BRIDGE_NAMES__: JSON.stringify(bridgeNames()) },
    build: {
      // A sandboxed preload cannot require anything: bundle it whole, as CommonJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [svelte({ configFile: resolve(import.meta.dirname, 'svelte.config.js') })],
    build: {
      // Keep what the page downloads small (target: 100 KB gzipped).
      minify: true,
      rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') },
    },
  },
});
