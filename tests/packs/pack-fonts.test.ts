import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFontsFrom, type CustomFontsService } from '../../main/packs/pack-fonts.js';

type Stored = ReturnType<CustomFontsService['customFaces']>[number];

const acme: Stored = {
  id: 'font_acme',
  family: 'Acme Sans',
  weight: 700,
  style: 'normal',
  format: 'ttf',
  sha256: 'a'.repeat(64),
  licence: 'SIL Open Font License 1.1',
  fileName: `${'a'.repeat(64)}.ttf`,
};

/** The custom fonts service as far as packs use it, over an in-memory list. */
function fakeService(stored: Stored[], uploaded: Stored) {
  const removed: string[] = [];
  const service: CustomFontsService = {
    dir: '/data/fonts',
    customFaces: (family) =>
      stored.filter((f) => f.family.toLowerCase() === family.trim().toLowerCase()),
    upload: async () => ({ font: uploaded, created: true }),
    remove: (id) => {
      removed.push(id);
      return Promise.resolve(true);
    },
  };
  return { service, removed };
}

describe('packs over the custom fonts service', () => {
  it('exports the custom faces of the families a template names, with their files', () => {
    const { service } = fakeService([acme], acme);
    expect(packFontsFrom(service).facesOf(['acme sans', 'Be Vietnam Pro'])).toEqual([
      {
        family: 'Acme Sans',
        weight: 700,
        style: 'normal',
        format: 'ttf',
        sha256: acme.sha256,
        licence: 'SIL Open Font License 1.1',
        file: path.join('/data/fonts', acme.fileName),
      },
    ]);
  });

  it('finds an installed face by family, weight and style to detect a conflict', () => {
    const fonts = packFontsFrom(fakeService([acme], acme).service);
    expect(fonts.find('Acme Sans', 700, 'normal')).toMatchObject({ sha256: acme.sha256 });
    expect(fonts.find('Acme Sans', 400, 'normal')).toBeNull();
  });

  it('refuses, and removes again, a font whose names differ from what the pack says', async () => {
    const { service, removed } = fakeService([], { ...acme, family: 'Other Sans' });
    await expect(
      packFontsFrom(service).install(Buffer.from('font'), {
        family: 'Acme Sans',
        weight: 700,
        style: 'normal',
        format: 'ttf',
      }),
    ).rejects.toMatchObject({ code: 'pack-invalid' });
    expect(removed).toEqual(['font_acme']);
  });
});
