/** UI text of the batch wizard's sheets for printing (N-up), in English and Vietnamese. */
export const sheetsEn = {
  'sheets.output': 'Output',
  'sheets.output.files': 'Single files: one file a row',
  'sheets.page': 'Page as an image',
  'sheets.page.hint':
    'This layout has {pages} pages and an image holds one: choose which page each row draws, or PDF for every page in one file.',
  'sheets.page.option': 'Page {page}',
  'sheets.output.cropMarks': 'Crop marks outside the trim and bleed',
  'sheets.output.sheets': 'Sheets for printing: several rows a sheet, with cut marks',
  'sheets.preset': 'Sheet',
  'sheets.preset.hint':
    'Presets that hold this layout. Labels are placed where the maker prints them.',
  'sheets.preset.suggested': 'suggested',
  'sheets.preset.fit': 'As many as fit on A4',
  'sheets.duplex': 'Backs (duplex)',
  'sheets.duplex.hint':
    'Page 2 of each row on the next sheet, mirrored so it lands behind its front when the printer turns the paper.',
  'sheets.duplex.none': 'No backs',
  'sheets.duplex.long-edge': 'Flip on long edge',
  'sheets.duplex.short-edge': 'Flip on short edge',
  'sheets.marks': 'Marks',
  'sheets.marks.crop': 'Crop marks',
  'sheets.marks.cut': 'Cut lines',
  'sheets.marks.none': 'None',
  'sheets.order': 'Order',
  'sheets.order.cutAndStack': 'Cut and stack',
  'sheets.order.hint':
    'Rows go down the stack instead of across each sheet: after one cut through the printed pile, each pile is already in row order, pile 1 first.',
  'sheets.preview.summary': '{count} a sheet ({columns} × {rows}) on {width} × {height} mm',
  'sheets.preview.label': 'Preview of one sheet with {count} places',
  'sheets.preview.side': 'Side shown',
  'sheets.preview.front': 'Front',
  'sheets.preview.back': 'Back',
} as const;

export const sheetsVi: Record<keyof typeof sheetsEn, string> = {
  'sheets.output': 'Đầu ra',
  'sheets.output.files': 'Từng tệp: mỗi dòng một tệp',
  'sheets.page': 'Trang xuất thành ảnh',
  'sheets.page.hint':
    'Bố cục này có {pages} trang và mỗi ảnh chỉ chứa một trang: hãy chọn trang cho mỗi dòng, hoặc chọn PDF để có mọi trang trong một tệp.',
  'sheets.page.option': 'Trang {page}',
  'sheets.output.cropMarks': 'Dấu cắt góc bên ngoài phần xén và phần tràn lề',
  'sheets.output.sheets': 'Tờ in: nhiều dòng trên một tờ, có dấu cắt',
  'sheets.preset': 'Khổ giấy',
  'sheets.preset.hint':
    'Các mẫu vừa với bố cục này. Nhãn được đặt đúng vị trí nhà sản xuất in sẵn.',
  'sheets.preset.suggested': 'gợi ý',
  'sheets.preset.fit': 'Xếp tối đa trên khổ A4',
  'sheets.duplex': 'Mặt sau (in hai mặt)',
  'sheets.duplex.hint':
    'Trang 2 của mỗi dòng nằm ở tờ kế tiếp, lật đối xứng để trùng khớp sau mặt trước khi máy in lật giấy.',
  'sheets.duplex.none': 'Không in mặt sau',
  'sheets.duplex.long-edge': 'Lật theo cạnh dài',
  'sheets.duplex.short-edge': 'Lật theo cạnh ngắn',
  'sheets.marks': 'Dấu cắt',
  'sheets.marks.crop': 'Dấu góc',
  'sheets.marks.cut': 'Đường cắt',
  'sheets.marks.none': 'Không có',
  'sheets.order': 'Thứ tự',
  'sheets.order.cutAndStack': 'Cắt rồi xếp chồng',
  'sheets.order.hint':
    'Các dòng được xếp theo chiều chồng giấy thay vì lần lượt từng tờ: sau một nhát cắt qua cả xấp đã in, mỗi chồng đã đúng thứ tự dòng, chồng 1 trước.',
  'sheets.preview.summary': '{count} mỗi tờ ({columns} × {rows}) trên khổ {width} × {height} mm',
  'sheets.preview.label': 'Xem trước một tờ với {count} vị trí',
  'sheets.preview.side': 'Mặt đang xem',
  'sheets.preview.front': 'Mặt trước',
  'sheets.preview.back': 'Mặt sau',
};
