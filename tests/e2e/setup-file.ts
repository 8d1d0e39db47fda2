import { afterAll } from 'vitest';
import { closeContextsLeftOpen } from './harness.js';

// Runs for every test file, also where the worker reuses its modules (a hook at the top of
// harness.ts would be registered for the worker's first file only).
afterAll(closeContextsLeftOpen);
