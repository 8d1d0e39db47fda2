import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const electronOutsideShell = {
  paths: [{ name: 'electron', message: 'Only main/shell/ may import electron.' }],
};

const mainImportsSharedOnly = {
  group: ['**/renderer/**', '**/preload/**'],
  message: 'main/ may import shared/ only.',
};

/** A folder of main/ as its files import it: `../store/x.js`, `../../data/y.js`. */
const inFolders = (...folders) => folders.map((folder) => `**/${folder}/**`);

/**
 * The "never" arrows inside main/ (README, Architecture). Each file gets one
 * no-restricted-imports setting (a later config object replaces an earlier one's options), so
 * every setting below repeats the rules of main/ as a whole.
 */
const NEVER = {
  engine: [
    {
      group: inFolders('store', 'data', 'server', 'batch', 'cluster'),
      message:
        'main/engine draws inside the render threads: it never imports the store, the data ports, the server, batches or the cluster.',
    },
    {
      group: ['**/render/**', '!**/render/render-protocol.js'],
      message:
        'main/engine may import main/render/render-protocol.ts only; the rest of main/render is the pool around the engine.',
    },
  ],
  storage: [
    {
      group: inFolders('server', 'render', 'cluster'),
      message:
        'main/store and main/data sit below the services: they never import the server, the render pool or the cluster.',
    },
    {
      group: ['**/batch/**', '!**/batch/batch-queue.js'],
      message:
        'main/store and main/data may import main/batch/batch-queue.ts (the row-queue port they implement) only, never the batch runner or services.',
    },
  ],
  services: [
    {
      group: inFolders('server', 'cluster'),
      message:
        'Services (main/render, main/batch) never import the HTTP layer or the cluster: those call them, not the other way round.',
    },
  ],
  renderWorker: [
    {
      group: inFolders('store', 'data'),
      message:
        'The render worker never touches the store or the data ports: a RenderJob carries everything it draws.',
    },
  ],
};

/** The no-restricted-imports setting of a file in main/ outside main/shell/. */
const mainImports = (...nevers) => [
  'error',
  { ...electronOutsideShell, patterns: [mainImportsSharedOnly, ...nevers.flat()] },
];

/** The render worker's entry and the modules only it and the pool share. */
const RENDER_WORKER_FILES = [
  'main/render/render-worker*.ts',
  'main/render/render-worker*.mjs',
  'main/render/render-protocol.ts',
  'main/render/shared-templates.ts',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.tsbuild/',
      'out/',
      'coverage/',
      'renderer/dist/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-imports': ['error', electronOutsideShell],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', 'react', 'react-dom'],
              message: 'shared/ is runtime-neutral.',
            },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'shared/ imports nothing from the other layers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/shell/**'],
    rules: { 'no-restricted-imports': mainImports() },
  },
  {
    files: ['main/engine/**/*.ts'],
    rules: { 'no-restricted-imports': mainImports(NEVER.engine) },
  },
  {
    files: ['main/store/**/*.ts', 'main/data/**/*.ts'],
    rules: { 'no-restricted-imports': mainImports(NEVER.storage) },
  },
  {
    files: ['main/render/**/*.ts', 'main/batch/**/*.ts'],
    rules: { 'no-restricted-imports': mainImports(NEVER.services) },
  },
  {
    files: RENDER_WORKER_FILES,
    rules: { 'no-restricted-imports': mainImports(NEVER.services, NEVER.renderWorker) },
  },
  {
    files: ['main/shell/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The preload is Electron's too (contextBridge, ipcRenderer); it shares only shared/.
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**'],
              message: 'preload/ may import shared/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOutsideShell,
          patterns: [
            { group: ['node:*'], message: 'renderer/ runs in the browser.' },
            {
              group: ['**/main/**', '**/preload/**'],
              message: 'renderer/ may import shared/ and its own folder only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/api/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Only renderer/api/ talks to the server.' },
        { name: 'EventSource', message: 'Only renderer/api/ talks to the server.' },
      ],
    },
  },
);
