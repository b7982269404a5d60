// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/**
 * The layers of README.md ("Layout"), enforced: a wrong import fails CI.
 *   src/shared    imports nothing of ours but itself; no node:*, no electron, no DOM libraries
 *   src/exchange  imports shared only
 *   src/main      imports shared (and exchange, for paper mode); electron only in src/main/shell
 *                 inside it (docs/ipc.md, "Layers inside main"): domain code imports neither the
 *                 bridge (src/main/ipc) nor the composition root (src/main/root), only a
 *                 feature's feature.ts does; store/repos/* is reached through store/index.ts
 *   src/preload   imports the contract from shared, nothing else
 *   src/renderer  imports shared only
 */
const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'net',
  'http',
  'https',
  'url',
  'util',
  'stream',
  'events',
  'worker_threads',
];
const layer = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

/** src/main's own zones, as relative paths from any depth inside it. */
const mainOutside = [
  {
    group: ['**/renderer/**', '**/preload/**'],
    message: 'src/main must not import the renderer or preload.',
  },
];
const noElectron = {
  group: ['electron', 'electron/*'],
  message: 'Only the thin shell (src/main/shell) touches electron; services are plain Node.',
};
const noBridge = {
  regex: '^(\\.\\.?/)+(ipc|root)/',
  message:
    "Domain code imports neither the bridge (src/main/ipc) nor the composition root (src/main/root): throw a Refusal (src/main/refusal.ts) or a domain error, and serve it from the feature's feature.ts (docs/ipc.md).",
};
const noRepos = {
  regex: '(^|/)store/repos/',
  message: 'Reach the store through src/main/store/index.ts, not around it.',
};
/** The parts of main that wire the bridge: they may import src/main/ipc and src/main/root. */
const mainWiring = [
  'src/main/ipc/**',
  'src/main/root/**',
  'src/main/host/**',
  'src/main/cli/**',
  'src/main/shell/**',
  'src/main/**/feature.ts',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'test-results/',
      'playwright-report/',
      'build/electron-native/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser },
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  // ------------------------------------------------------------ layer rules
  {
    files: ['src/shared/**'],
    rules: layer([
      { group: nodeBuiltins, message: 'src/shared is plain TypeScript: no Node built-ins.' },
      { group: ['electron', 'electron/*'], message: 'src/shared must not import electron.' },
      {
        group: ['**/main/**', '**/exchange/**', '**/renderer/**', '**/preload/**'],
        message: 'src/shared imports only src/shared.',
      },
    ]),
  },
  {
    files: ['src/exchange/**'],
    rules: layer([
      {
        group: ['electron', 'electron/*'],
        message: 'The sandbox exchange must not import electron.',
      },
      {
        group: ['**/main/**', '**/renderer/**', '**/preload/**'],
        message: 'src/exchange imports only src/shared.',
      },
    ]),
  },
  {
    files: ['src/main/**'],
    ignores: [...mainWiring, 'src/main/store/**'],
    rules: layer([noElectron, ...mainOutside, noBridge, noRepos]),
  },
  {
    files: ['src/main/store/**'],
    rules: layer([noElectron, ...mainOutside, noBridge]),
  },
  {
    files: mainWiring,
    ignores: ['src/main/shell/**'],
    rules: layer([noElectron, ...mainOutside, noRepos]),
  },
  {
    files: ['src/main/shell/**'],
    rules: layer([...mainOutside, noRepos]),
  },
  {
    files: ['src/preload/**'],
    rules: layer([
      {
        group: ['**/main/**', '**/exchange/**', '**/renderer/**'],
        message: 'The preload imports only the contract from src/shared.',
      },
      { group: nodeBuiltins, message: 'The sandboxed preload has no Node built-ins.' },
    ]),
  },
  {
    files: ['src/renderer/**'],
    rules: layer([
      { group: nodeBuiltins, message: 'The renderer never touches Node.' },
      {
        group: ['electron', 'electron/*'],
        message: 'The renderer talks to main through the bridge alone.',
      },
      {
        group: ['**/main/**', '**/exchange/**', '**/preload/**'],
        message: 'src/renderer imports only src/shared.',
      },
    ]),
  },
  prettier,
  ...svelte.configs['flat/prettier'],
);
