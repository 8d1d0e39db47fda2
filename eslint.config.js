import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const electronOutsideShell = {
  paths: [{ name: 'electron', message: 'Only main/shell/ may import electron.' }],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'coverage/', 'renderer/dist/', 'bench/results/'] },
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
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOutsideShell,
          patterns: [
            {
              group: ['**/renderer/**', '**/preload/**'],
              message: 'main/ may import shared/ only.',
            },
          ],
        },
      ],
    },
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
