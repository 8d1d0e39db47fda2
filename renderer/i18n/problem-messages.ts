/**
 * What a user reads about a value the server refused, in English and Vietnamese (merged into
 * en.ts and vi.ts). Each names the field (and the spreadsheet cell) and says what to do; the
 * API's codes and English messages stay in the API.
 */
export const problemEn = {
  'problem.subject.cell': '{label} (cell {cell})',
  'problem.subject.line': 'Spreadsheet row {line}',
  'problem.subject.values': 'This image',
  'problem.required': '{subject}: a value is required. Fill it in or choose a column for it.',
  'problem.notNumber': '{subject}: “{text}” is not a number. Write it like {example}.',
  'problem.min': '{subject}: {value} is below the smallest allowed, {min}. Use a larger number.',
  'problem.max': '{subject}: {value} is above the largest allowed, {max}. Use a smaller number.',
  'problem.date': '{subject}: “{text}” is not a date. Write it like 17/02/2026 or 2026-02-17.',
  'problem.colour': '{subject}: “{text}” is not a colour. Use a code like #1A2B3C.',
  'problem.enum': '{subject}: “{text}” is not one of the choices ({options}). Use one of them.',
  'problem.maxItems': '{subject}: {count} items, but at most {max} fit. Remove some.',
  'problem.tooLong': '{subject}: the text is too long (at most {max} characters). Shorten it.',
  'problem.totalTooLong': '{subject}: the texts together are too long. Shorten some of them.',
  'problem.truncated':
    '{subject}: the text does not fit and is shortened with “…”. Shorten it to show it all.',
  'problem.brandEmpty':
    '{subject}: the brand has no value for it and the template no default, so it stays empty. Fill in the brand kit or choose a column.',
  'problem.glyphs': '{subject}: no font can draw {chars}. Remove or replace these characters.',
  'problem.notText': '{subject}: this takes text. Type text here.',
  'problem.imageMissing':
    '{subject}: there is no image file “{file}”. Check the name, or put the image in the images folder.',
  'problem.imageOutside':
    '{subject}: “{file}” leads outside the images folder. Put the image inside the folder and name it from there.',
  'problem.imageUnreadable': '{subject}: the image cannot be opened. Use a PNG, JPEG or WebP file.',
  'problem.imageTooLarge': '{subject}: the image is too large. Use a smaller image.',
  'problem.image': '{subject}: this image cannot be used. Choose another image file.',
  'problem.unknownVariable': '{subject}: the template has no such field. Remove this column.',
  'problem.codeUnreadable':
    '{subject}: the code “{layer}” does not scan from the finished image. Make it larger, give it more contrast against its background, or move other layers off it.',
  'problem.codeMisread':
    '{subject}: the code “{layer}” scans as “{text}” instead of its value. Make it larger or give it more contrast.',
  'problem.sheet': '{subject}: {message}',
  'problem.other': '{subject}: {message}',
  'problem.more': '…and {count} more',
  'apiError.validation-failed': 'Some values need fixing',
  'apiError.insufficient-credits': 'Not enough credits. Add credits, then try again.',
  'apiError.subscription-lapsed': 'Your subscription has lapsed. Renew it to render again.',
  'apiError.network': 'The app is not answering. It restarts by itself; try again in a moment.',
  'apiError.not-found': 'This no longer exists. Go back and choose again.',
  'apiError.payload-too-large': 'The file is too large. Use a smaller file.',
  'apiError.unsupported-media-type': 'This kind of file cannot be used here.',
  'apiError.image-invalid': 'This image cannot be used. Choose another image file.',
  'apiError.invalid-spreadsheet':
    'The spreadsheet cannot be read. Save it again as .xlsx or .csv and retry.',
  'apiError.unsupported-encoding':
    'The text encoding of this file is not known. Save it as CSV UTF-8 and retry.',
  'apiError.no-rows-found': 'The spreadsheet has no rows below its header row.',
  'apiError.too-many-rows': 'The spreadsheet has too many rows. Split it into smaller files.',
  'apiError.too-many-columns': 'The spreadsheet has too many columns. Remove the unused ones.',
  'apiError.cell-too-large': 'A cell of the spreadsheet holds too much text. Shorten it.',
  'apiError.row-too-large': 'A row of the spreadsheet holds too much text. Shorten it.',
  'apiError.rate-limited': 'Too many requests at once. Wait a moment, then try again.',
  'apiError.render-failed': 'The image could not be drawn. Check the values and try again.',
  'apiError.render-timeout': 'Drawing the image took too long. Try again.',
  'apiError.service-busy': 'The app is busy. Try again in a moment.',
  'apiError.disk-full': 'The disk is full. Free some space, then try again.',
  'apiError.internal': 'Something went wrong in the app. Try again.',
} as const;

export const problemVi: Record<keyof typeof problemEn, string> = {
  'problem.subject.cell': '{label} (ô {cell})',
  'problem.subject.line': 'Dòng {line} của bảng tính',
  'problem.subject.values': 'Ảnh này',
  'problem.required': '{subject}: cần có giá trị. Hãy điền vào hoặc chọn một cột cho trường này.',
  'problem.notNumber': '{subject}: “{text}” không phải là số. Hãy viết như {example}.',
  'problem.min': '{subject}: {value} nhỏ hơn mức tối thiểu {min}. Hãy dùng số lớn hơn.',
  'problem.max': '{subject}: {value} lớn hơn mức tối đa {max}. Hãy dùng số nhỏ hơn.',
  'problem.date':
    '{subject}: “{text}” không phải là ngày. Hãy viết như 17/02/2026 hoặc 2026-02-17.',
  'problem.colour': '{subject}: “{text}” không phải là mã màu. Hãy dùng mã như #1A2B3C.',
  'problem.enum':
    '{subject}: “{text}” không nằm trong các lựa chọn ({options}). Hãy dùng một trong số đó.',
  'problem.maxItems': '{subject}: có {count} mục nhưng chỉ chứa được tối đa {max}. Hãy bớt đi.',
  'problem.tooLong': '{subject}: văn bản quá dài (tối đa {max} ký tự). Hãy rút gọn.',
  'problem.totalTooLong': '{subject}: tổng các văn bản quá dài. Hãy rút gọn bớt.',
  'problem.truncated':
    '{subject}: văn bản không vừa chỗ nên bị cắt bớt bằng “…”. Hãy rút gọn để hiện đầy đủ.',
  'problem.brandEmpty':
    '{subject}: thương hiệu chưa có giá trị này và mẫu không có mặc định nên sẽ để trống. Hãy điền bộ nhận diện thương hiệu hoặc chọn một cột.',
  'problem.glyphs':
    '{subject}: không phông chữ nào vẽ được {chars}. Hãy xoá hoặc thay các ký tự này.',
  'problem.notText': '{subject}: trường này nhận văn bản. Hãy nhập văn bản.',
  'problem.imageMissing':
    '{subject}: không có tệp ảnh “{file}”. Hãy kiểm tra tên tệp hoặc đặt ảnh vào thư mục ảnh.',
  'problem.imageOutside':
    '{subject}: “{file}” trỏ ra ngoài thư mục ảnh. Hãy đặt ảnh vào trong thư mục và ghi tên tính từ thư mục đó.',
  'problem.imageUnreadable': '{subject}: không mở được ảnh. Hãy dùng tệp PNG, JPEG hoặc WebP.',
  'problem.imageTooLarge': '{subject}: ảnh quá lớn. Hãy dùng ảnh nhỏ hơn.',
  'problem.image': '{subject}: không dùng được ảnh này. Hãy chọn tệp ảnh khác.',
  'problem.unknownVariable': '{subject}: mẫu không có trường này. Hãy bỏ cột này.',
  'problem.codeUnreadable':
    '{subject}: mã “{layer}” không quét được từ ảnh hoàn chỉnh. Hãy phóng to mã, tăng độ tương phản với nền, hoặc dời các lớp khác ra khỏi mã.',
  'problem.codeMisread':
    '{subject}: mã “{layer}” quét ra “{text}” thay vì giá trị của nó. Hãy phóng to mã hoặc tăng độ tương phản.',
  'problem.sheet': '{subject}: {message}',
  'problem.other': '{subject}: {message}',
  'problem.more': '…và {count} lỗi khác',
  'apiError.validation-failed': 'Một số giá trị cần sửa',
  'apiError.insufficient-credits': 'Không đủ lượt dựng ảnh. Hãy nạp thêm rồi thử lại.',
  'apiError.subscription-lapsed': 'Gói đăng ký đã hết hạn. Hãy gia hạn để tiếp tục dựng ảnh.',
  'apiError.network':
    'Ứng dụng chưa phản hồi. Ứng dụng sẽ tự khởi động lại; hãy thử lại sau giây lát.',
  'apiError.not-found': 'Mục này không còn nữa. Hãy quay lại và chọn lại.',
  'apiError.payload-too-large': 'Tệp quá lớn. Hãy dùng tệp nhỏ hơn.',
  'apiError.unsupported-media-type': 'Không dùng được loại tệp này ở đây.',
  'apiError.image-invalid': 'Không dùng được ảnh này. Hãy chọn tệp ảnh khác.',
  'apiError.invalid-spreadsheet':
    'Không đọc được bảng tính. Hãy lưu lại dưới dạng .xlsx hoặc .csv rồi thử lại.',
  'apiError.unsupported-encoding':
    'Không nhận ra bảng mã của tệp. Hãy lưu dưới dạng CSV UTF-8 rồi thử lại.',
  'apiError.no-rows-found': 'Bảng tính không có dòng nào dưới dòng tiêu đề.',
  'apiError.too-many-rows': 'Bảng tính có quá nhiều dòng. Hãy chia thành các tệp nhỏ hơn.',
  'apiError.too-many-columns': 'Bảng tính có quá nhiều cột. Hãy xoá các cột không dùng.',
  'apiError.cell-too-large': 'Một ô trong bảng tính chứa quá nhiều chữ. Hãy rút gọn.',
  'apiError.row-too-large': 'Một dòng trong bảng tính chứa quá nhiều chữ. Hãy rút gọn.',
  'apiError.rate-limited': 'Quá nhiều yêu cầu cùng lúc. Hãy đợi một chút rồi thử lại.',
  'apiError.render-failed': 'Không dựng được ảnh. Hãy kiểm tra các giá trị rồi thử lại.',
  'apiError.render-timeout': 'Dựng ảnh mất quá lâu. Hãy thử lại.',
  'apiError.service-busy': 'Ứng dụng đang bận. Hãy thử lại sau giây lát.',
  'apiError.disk-full': 'Ổ đĩa đã đầy. Hãy giải phóng dung lượng rồi thử lại.',
  'apiError.internal': 'Đã có lỗi trong ứng dụng. Hãy thử lại.',
};
