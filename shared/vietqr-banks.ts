/** A bank a VietQR can name: its NAPAS BIN (the payload's), the name people use, its code. */
export interface VietQrBank {
  bin: string;
  shortName: string;
  /** The code banking apps and the VietQR directory use (VCB, ICB, TCB …). */
  code: string;
  name: string;
}

/**
 * The banks of the NAPAS 247 network that most transfers go to, by the BIN a VietQR carries
 * (as in the public VietQR bank directory). A bank not listed is named by its BIN: NAPAS has
 * some fifty members, and a shop may bank with any of them.
 */
export const VIETQR_BANKS: readonly VietQrBank[] = [
  {
    bin: '970436',
    shortName: 'Vietcombank',
    code: 'VCB',
    name: 'Ngân hàng TMCP Ngoại thương Việt Nam',
  },
  {
    bin: '970415',
    shortName: 'VietinBank',
    code: 'ICB',
    name: 'Ngân hàng TMCP Công thương Việt Nam',
  },
  {
    bin: '970418',
    shortName: 'BIDV',
    code: 'BIDV',
    name: 'Ngân hàng TMCP Đầu tư và Phát triển Việt Nam',
  },
  {
    bin: '970405',
    shortName: 'Agribank',
    code: 'VBA',
    name: 'Ngân hàng Nông nghiệp và Phát triển Nông thôn Việt Nam',
  },
  {
    bin: '970407',
    shortName: 'Techcombank',
    code: 'TCB',
    name: 'Ngân hàng TMCP Kỹ thương Việt Nam',
  },
  { bin: '970422', shortName: 'MB', code: 'MB', name: 'Ngân hàng TMCP Quân đội' },
  { bin: '970416', shortName: 'ACB', code: 'ACB', name: 'Ngân hàng TMCP Á Châu' },
  { bin: '970432', shortName: 'VPBank', code: 'VPB', name: 'Ngân hàng TMCP Việt Nam Thịnh Vượng' },
  { bin: '970423', shortName: 'TPBank', code: 'TPB', name: 'Ngân hàng TMCP Tiên Phong' },
  { bin: '970403', shortName: 'Sacombank', code: 'STB', name: 'Ngân hàng TMCP Sài Gòn Thương Tín' },
  {
    bin: '970437',
    shortName: 'HDBank',
    code: 'HDB',
    name: 'Ngân hàng TMCP Phát triển Thành phố Hồ Chí Minh',
  },
  { bin: '970441', shortName: 'VIB', code: 'VIB', name: 'Ngân hàng TMCP Quốc tế Việt Nam' },
  { bin: '970443', shortName: 'SHB', code: 'SHB', name: 'Ngân hàng TMCP Sài Gòn – Hà Nội' },
  {
    bin: '970431',
    shortName: 'Eximbank',
    code: 'EIB',
    name: 'Ngân hàng TMCP Xuất Nhập khẩu Việt Nam',
  },
  { bin: '970426', shortName: 'MSB', code: 'MSB', name: 'Ngân hàng TMCP Hàng Hải Việt Nam' },
  { bin: '970448', shortName: 'OCB', code: 'OCB', name: 'Ngân hàng TMCP Phương Đông' },
  { bin: '970440', shortName: 'SeABank', code: 'SEAB', name: 'Ngân hàng TMCP Đông Nam Á' },
  { bin: '970449', shortName: 'LPBank', code: 'LPB', name: 'Ngân hàng TMCP Lộc Phát Việt Nam' },
  { bin: '970428', shortName: 'Nam A Bank', code: 'NAB', name: 'Ngân hàng TMCP Nam Á' },
  { bin: '970409', shortName: 'Bac A Bank', code: 'BAB', name: 'Ngân hàng TMCP Bắc Á' },
];

/** A name as compared: no case, spaces, marks or punctuation ("Nam Á Bank" = "namabank"). */
function key(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The BIN a bank value stands for: a BIN (six digits starting 970, listed or not), or a listed
 * bank's short name, code or full name written any way ("vietcombank", "VCB"); null otherwise.
 */
export function vietQrBin(value: string): string | null {
  const text = value.trim();
  if (/^970\d{3}$/.test(text)) return text;
  const wanted = key(text);
  if (!wanted) return null;
  const bank = VIETQR_BANKS.find(
    (b) => key(b.shortName) === wanted || key(b.code) === wanted || key(b.name) === wanted,
  );
  return bank?.bin ?? null;
}
