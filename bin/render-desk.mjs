#!/usr/bin/env node
// The package's `render-desk` command: the TypeScript entry, run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/render-desk.ts');
