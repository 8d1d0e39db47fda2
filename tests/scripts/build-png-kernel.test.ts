import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PNG_KERNEL_MODULE, pngKernelModuleText } from '../../scripts/build-png-kernel.js';

describe('build-png-kernel', () => {
  it('builds the committed PNG filter kernel byte for byte from its .wat source', async () => {
    const built = await pngKernelModuleText();
    expect(built).toMatch(/PNG_FILTER_WASM =\n {2}'[A-Za-z0-9+/=]{100,}'/);
    expect(built).toBe(readFileSync(PNG_KERNEL_MODULE, 'utf8'));
  });
});
