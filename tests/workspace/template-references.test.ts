import { describe, expect, it } from 'vitest';
import { templateReferenceProblems } from '../../main/workspace/template-references.js';
import { Template, type Layout } from '../../shared/template-format.js';
import { catalog } from '../helpers/engine-renderer.js';

const certificate = catalog.get('tmpl_certificate_award')!.template;

function withLayout(name: string, layout: Layout): Template {
  return Template.parse({ ...certificate, layouts: { ...certificate.layouts, [name]: layout } });
}

describe('layout sizes', () => {
  it('accepts a print layout whose pixels are its trim at its DPI', () => {
    expect(templateReferenceProblems(certificate)).toEqual([]);
  });

  it('refuses a print layout whose pixels are not its page at its DPI', () => {
    const a4 = certificate.layouts.a4!;
    const problems = templateReferenceProblems(withLayout('a4', { ...a4, width: 1800 }));
    expect(problems).toEqual([
      {
        path: 'layouts.a4.width',
        message: 'a 297 × 210 mm page at 150 dpi is 1754 × 1240 px, not 1800 × 1240',
      },
    ]);
  });

  it('allows any pixel size for a custom-size layout, but only the ratio size for a ratio', () => {
    const square = certificate.layouts.square!;
    expect(
      templateReferenceProblems(withLayout('banner', { ...square, width: 1500, height: 500 })),
    ).toEqual([]);
    expect(
      templateReferenceProblems(withLayout('square', { ...square, width: 1500 })).map(
        (p) => p.path,
      ),
    ).toEqual(['layouts.square.width']);
  });
});

describe('barcode values', () => {
  const withCode = (value: string) => {
    const square = certificate.layouts.square!;
    const code = {
      kind: 'barcode' as const,
      id: 'code',
      x: 40,
      y: 40,
      width: 452,
      height: 200,
      symbology: 'ean13' as const,
      value,
      foreground: '#000000',
      background: '#FFFFFF',
    };
    return withLayout('square', { ...square, layers: [...square.layers, code] });
  };

  it('checks a code written into the template, and the names of placeholders', () => {
    expect(templateReferenceProblems(withCode('5901234123457'))).toEqual([]);
    const index = certificate.layouts.square!.layers.length;
    expect(templateReferenceProblems(withCode('5901234123456'))).toEqual([
      {
        path: `layouts.square.layers[${index}].value`,
        message:
          '"5901234123456" is not a valid EAN-13: its check digit should be 7, not 6. Leave the last digit out to have it computed',
      },
    ]);
    expect(templateReferenceProblems(withCode('{{gtin}}'))).toEqual([
      {
        path: `layouts.square.layers[${index}].value`,
        message: '{{gtin}} names no variable; declare "gtin" under variables or correct the name',
      },
    ]);
  });
});

describe('VietQR fields written into the template', () => {
  const withTransfer = (vietqr: Record<string, unknown>) => {
    const square = certificate.layouts.square!;
    const pay = { kind: 'qr', id: 'pay', x: 40, y: 40, width: 300, height: 300, value: { vietqr } };
    return Template.parse({
      ...certificate,
      layouts: { ...certificate.layouts, square: { ...square, layers: [...square.layers, pay] } },
    });
  };
  const at = (field: string) =>
    `layouts.square.layers[${certificate.layouts.square!.layers.length}].value.vietqr.${field}`;

  it('refuses at save what would fail every row: an unknown bank, an account with letters, decimals', () => {
    expect(
      templateReferenceProblems(
        withTransfer({ bank: 'Vietcombank', account: '0071000123456', amount: 150000 }),
      ),
    ).toEqual([]);
    const problems = templateReferenceProblems(
      withTransfer({ bank: 'Ngân hàng Mặt Trăng', account: '0071-000-123', amount: '150000.5' }),
    );
    expect(problems.map((p) => p.path)).toEqual([at('bank'), at('account'), at('amount')]);
    expect(problems[0]!.message).toMatch(/"Ngân hàng Mặt Trăng" is not a bank a VietQR knows/);
    expect(problems[1]!.message).toMatch(/digits only/);
  });

  it('checks only the typed-in fields when others come from variables', () => {
    const fromVariables = { bank: { var: 'recipient' }, account: { var: 'recipient' } };
    expect(
      templateReferenceProblems(withTransfer({ ...fromVariables, message: 'Hoc phi thang 9' })),
    ).toEqual([]);
    const long = 'Thanh toan hoc phi hoc ky mot nam 2026';
    expect(
      templateReferenceProblems(withTransfer({ ...fromVariables, message: long })).map(
        (p) => p.path,
      ),
    ).toEqual([at('message')]);
    expect(
      templateReferenceProblems(withTransfer({ bank: { var: 'recipient' }, account: '12ab' })).map(
        (p) => p.path,
      ),
    ).toEqual([at('account')]);
  });
});
