import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../main/app.js';
import { loadCatalog } from '../../../main/catalog/load-catalog.js';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { createImageReferenceResolver } from '../../../main/engine/image-reference.js';
import { FONTS_DIR, renderJob } from '../../../main/engine/render-job.js';
import type { RenderPool } from '../../../main/render/render-pool.js';
import { RenderService } from '../../../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../../../shared/brand-profile.js';
import { hasValidCrc, parseEmv } from '../../helpers/emv-tlv.js';
import { rasterisePdf } from '../../helpers/poppler.js';
import { readCodes } from '../../helpers/read-barcodes.js';

/**
 * The payment template's VietQR, rendered from its sample values as a banking app meets it (the
 * square post as a PNG, the counter card as a PDF printed at 300 dpi), decoded by ZXing: an
 * EMVCo payload with a valid CRC carrying the bank, account, amount and message.
 */
registerBundledFonts(FONTS_DIR);

const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
const renderer = new RenderService({
  templates: catalog,
  pool: undefined as unknown as RenderPool,
  brandProfile: () => EMPTY_BRAND_PROFILE,
  resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
});
const template = catalog.get('tmpl_payment_qr')!.template;

async function scanned(target: string, format: 'png' | 'pdf'): Promise<string[]> {
  const job = renderer.prepare({
    templateId: 'tmpl_payment_qr',
    values: template.sampleValues,
    target,
    format,
  });
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  const image = format === 'pdf' ? rasterisePdf(result.bytes, 300) : result.bytes;
  return (await readCodes(image, ['QRCode'])).map((code) => code.text);
}

describe('the payment template’s VietQR', () => {
  it.each([
    ['square', 'png'],
    ['card', 'pdf'],
  ] as const)(
    'on %s (%s) scans as a NAPAS 247 transfer with the account, amount and message',
    async (target, format) => {
      const [payload, ...others] = await scanned(target, format);
      expect(others).toEqual([]);
      expect(hasValidCrc(payload!)).toBe(true);
      const fields = parseEmv(payload!);
      expect([...fields.keys()]).toEqual(['00', '01', '38', '53', '54', '58', '62', '63']);
      expect(fields.get('00')).toBe('01');
      expect(fields.get('01')).toBe('12');
      expect(fields.get('53')).toBe('704');
      expect(fields.get('54')).toBe('125000');
      expect(fields.get('58')).toBe('VN');
      expect(parseEmv(fields.get('62')!).get('08')).toBe('Thanh toan don 1024');
      const merchant = parseEmv(fields.get('38')!);
      expect(merchant.get('00')).toBe('A000000727');
      expect(merchant.get('02')).toBe('QRIBFTTA');
      const beneficiary = parseEmv(merchant.get('01')!);
      expect(beneficiary.get('00')).toBe('970436');
      expect(beneficiary.get('01')).toBe('1023456789');
    },
  );
});
