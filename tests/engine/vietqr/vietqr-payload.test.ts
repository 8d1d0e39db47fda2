import { describe, expect, it } from 'vitest';
import { crc16CcittFalse } from '../../../main/engine/vietqr/crc16-ccitt.js';
import { checkVietQr } from '../../../main/engine/vietqr/vietqr-fields.js';
import { vietQrPayload } from '../../../main/engine/vietqr/vietqr-payload.js';
import { vietQrBin } from '../../../shared/vietqr-banks.js';
import type { VietQrSource } from '../../../shared/template-format.js';
import { hasValidCrc, parseEmv } from '../../helpers/emv-tlv.js';

const SOURCE: VietQrSource = {
  bank: { var: 'bank' },
  account: { var: 'account' },
  amount: { var: 'amount' },
  message: { var: 'message' },
};

const problems = (values: Record<string, string | number | null>) => {
  const checked = checkVietQr(SOURCE, { bank: '970436', account: '1023456789', ...values });
  return checked.ok ? [] : checked.problems.map((p) => `${p.variable}: ${p.message}`);
};

describe('VietQR payloads', () => {
  it('end with the CRC-16/CCITT-FALSE of all before it', () => {
    // The catalogue check value of CRC-16/CCITT-FALSE.
    expect(crc16CcittFalse('123456789')).toBe('29B1');
    expect(hasValidCrc(vietQrPayload({ bin: '970436', account: '1023456789' }))).toBe(true);
  });

  it('are static without an amount: NAPAS GUID, BIN, account and service code in tag 38', () => {
    const payload = vietQrPayload({ bin: '970436', account: '1023456789' });
    expect(payload).toBe(
      '000201010211' +
        '3854' +
        '0010A000000727' +
        '0124' +
        '0006970436' +
        '01101023456789' +
        '0208QRIBFTTA' +
        '5303704' +
        '5802VN' +
        `6304${crc16CcittFalse(payload.slice(0, -4))}`,
    );
  });

  it('are dynamic with an amount, carrying it in tag 54 and the message as tag 62 purpose', () => {
    const fields = parseEmv(
      vietQrPayload({
        bin: '970422',
        account: '0123456789012',
        amount: '125000',
        message: 'Don 1024',
      }),
    );
    expect(fields.get('01')).toBe('12');
    expect(fields.get('54')).toBe('125000');
    expect(parseEmv(fields.get('62')!).get('08')).toBe('Don 1024');
    const beneficiary = parseEmv(parseEmv(fields.get('38')!).get('01')!);
    expect([beneficiary.get('00'), beneficiary.get('01')]).toEqual(['970422', '0123456789012']);
  });
});

describe('VietQR fields', () => {
  it('take a bank by BIN, or by name or code written any way', () => {
    expect(vietQrBin('970436')).toBe('970436');
    expect(vietQrBin(' vietcombank ')).toBe('970436');
    expect(vietQrBin('VCB')).toBe('970436');
    expect(vietQrBin('Nam Á Bank')).toBe('970428');
    expect(vietQrBin('Ngân hàng TMCP Quân đội')).toBe('970422');
    // A member not in the list is named by its BIN.
    expect(vietQrBin('970425')).toBe('970425');
    expect(vietQrBin('Ngân hàng Mặt Trăng')).toBeNull();
  });

  it('drop Vietnamese marks from the message and write a whole amount as digits', () => {
    const checked = checkVietQr(SOURCE, {
      bank: 'Techcombank',
      account: '19034567890123',
      amount: 50000,
      message: 'Thanh toán  đơn 1024',
    });
    expect(checked.ok).toBe(true);
    const fields = parseEmv(checked.ok ? checked.payload : '');
    expect(fields.get('54')).toBe('50000');
    expect(parseEmv(fields.get('62')!).get('08')).toBe('Thanh toan don 1024');
  });

  it('draw nothing without a bank and an account, and a static code without an amount', () => {
    expect(checkVietQr(SOURCE, {})).toEqual({ ok: true, payload: '' });
    const checked = checkVietQr(SOURCE, { bank: '970436', account: '1023456789', amount: null });
    expect(checked.ok && parseEmv(checked.payload).get('01')).toBe('11');
  });

  it('are refused with a reason naming the variable: bank, account, amount, message', () => {
    expect(problems({ bank: 'Ngân hàng Mặt Trăng' })).toEqual([
      'bank: "Ngân hàng Mặt Trăng" is not a bank a VietQR knows: give its NAPAS BIN (six digits starting 970, such as 970436) or a bank\'s name, such as Vietcombank, VietinBank or BIDV',
    ]);
    expect(problems({ account: '0071-0012' })).toEqual([
      'account: "0071-0012" is not an account number: digits only, without spaces or dashes',
    ]);
    expect(problems({ account: '12345' })).toEqual([
      'account: "12345" has 5 digits; an account number has 6 to 19',
    ]);
    expect(problems({ amount: 1250.5 })).toEqual([
      'amount: 1250.5 has decimals; an amount in đồng is a whole number',
    ]);
    expect(problems({ amount: 0 })).toEqual([
      'amount: an amount must be more than 0 đồng; leave it empty for a code the payer types the amount into',
    ]);
    expect(problems({ amount: '50.000' })).toEqual([
      'amount: "50.000" is not a whole number of đồng in digits: write it without separators, decimals or sign (50000)',
    ]);
    expect(problems({ message: 'Đơn #1024' })).toEqual([
      'message: "Đơn #1024" holds "#", which transfer descriptions do not take: use letters, digits and spaces',
    ]);
    expect(problems({ message: 'Thanh toán tiền cơm tháng mười' })).toEqual([
      'message: "Thanh toán tiền cơm tháng mười" is 30 characters; a transfer description takes 25',
    ]);
    expect(problems({ bank: '', account: '1023456789' })).toEqual([
      'bank: a VietQR needs the bank the account is with',
    ]);
  });
});
