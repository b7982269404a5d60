import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './build/chromium.js';
import { bridgeNames } from './src/shared/ipc/contract.js';

/** Components, mounted in real Chromium: what the user sees of them. */
const COMPONENT_TESTS = [
  'test/renderer/components/**/*.test.ts',
  'test/renderer/screens/**/*.test.ts',
];

export default defineConfig({
  // What the build writes into the preload (electron.vite.config.ts), for the preload's tests.
  define: { __BETDESK_BRIDGE_NAMES__: JSON.stringify(bridgeNames()) },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/renderer/**'],
        },
      },
      {
        // The renderer's state classes (*.svelte.ts): runes compiled for the browser, as the app
        // runs them, so $derived and $effect behave as they do there. Only here: the browser
        // export conditions would break Node packages (ws) in the other tests.
        extends: true,
        plugins: [
          svelte({
            configFile: false,
            compilerOptions: { runes: true },
            dynamicCompileOptions: () => ({ generate: 'client' }),
          }),
        ],
        ssr: { resolve: { conditions: ['browser'], externalConditions: ['browser'] } },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...COMPONENT_TESTS],
        },
      },
      {
        // Components mounted with a root over the in-memory bridge, in Debian's Chromium (as the
        // e2e tests run it): the DOM, focus and roles are the browser's own.
        extends: true,
        plugins: [svelte({ configFile: false, compilerOptions: { runes: true } })],
        test: {
          name: 'components',
          include: COMPONENT_TESTS,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
