import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './harness.js';

describe('the built UI', () => {
  it("ships React's production build even when a test runner builds it", () => {
    // The suite's global setup built renderer/dist under vitest, which sets NODE_ENV=test.
    const assets = path.join(ROOT, 'renderer', 'dist', 'assets');
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = fs.readFileSync(path.join(assets, name), 'utf8');
      expect(code, name).not.toContain('jsxDEV');
      expect(code, name).not.toContain('react_stack_bottom_frame');
    }
  });
});
