// Electron's entry (package.json "main"). The shell is TypeScript, bundled by
// `npm run build:shell` (run by `npm start` before Electron starts) into dist/shell/.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry loads with require() */
const path = require('node:path');

try {
  require(path.join(__dirname, '..', '..', 'dist', 'shell', 'electron-main.cjs'));
} catch (error) {
  if (
    error &&
    error.code === 'MODULE_NOT_FOUND' &&
    String(error.message).includes('electron-main.cjs')
  ) {
    console.error('The desktop shell is not built. Run `npm run build:shell`, then start again.');
    process.exit(1);
  }
  throw error;
}
