import { describe, expect, it } from 'vitest';
import { scriptsCovered } from '../../main/fonts/font-scripts.js';

describe('scripts a font covers', () => {
  it.each([
    ['arabic', [0x0600, 0x06ff]],
    ['hebrew', [0x05d0, 0x05ea]],
    ['devanagari', [0x0900, 0x097f]],
    ['thai', [0x0e00, 0x0e7f]],
    ['han', [0x4e00, 0x9fff]],
    ['kana', [0x3040, 0x30ff]],
    ['hangul', [0xac00, 0xd7a3]],
  ] as const)('reports %s for a font that draws its block, and nothing else', (script, block) => {
    expect(scriptsCovered([block])).toEqual([script]);
  });

  it('reports no script for half a block', () => {
    expect(scriptsCovered([[0x0900, 0x0920]])).toEqual([]);
  });
});
