/** UI text of Settings' integration cards (image URLs, webhooks), in English and Vietnamese. */
export const integrationEn = {
  'imageUrls.title': 'Image URLs in data',
  'imageUrls.subtitle':
    'Let spreadsheet cells and render values name images by http(s) address. Off by default: Render Desk then works fully offline.',
  'imageUrls.enabled': 'Fetch images from http(s) addresses',
  'imageUrls.hosts': 'Allowed hosts',
  'imageUrls.hosts.hint':
    'One per line, such as images.example.com, or *.cdn.example.com for its subdomains. Empty: any public host. Addresses on this computer or your local network are always refused.',
  'imageUrls.saved': 'Image URL setting saved',
  'imageUrls.rules':
    'At most 20 MB an image, 15 s a fetch, 5 redirects. Fetched images are cached in the data folder.',
  'apiError.url-not-allowed':
    'Image URLs are off. Turn them on in Settings → Image URLs, or use a file or an upload.',
  'apiError.image-url-refused': 'That image address is not allowed (host or network).',
  'apiError.image-url-unreachable': 'That image address could not be fetched.',
  'apiError.image-url-too-large': 'The image at that address is over 20 MB.',
  'apiError.image-url-not-an-image': 'That address does not hold an image.',
  'apiError.image-url-timeout': 'That image address took too long to answer.',
} as const;

export const integrationVi: Record<keyof typeof integrationEn, string> = {
  'imageUrls.title': 'Địa chỉ ảnh trong dữ liệu',
  'imageUrls.subtitle':
    'Cho phép ô bảng tính và giá trị dựng ảnh trỏ tới ảnh bằng địa chỉ http(s). Mặc định tắt: Render Desk khi đó chạy hoàn toàn ngoại tuyến.',
  'imageUrls.enabled': 'Tải ảnh từ địa chỉ http(s)',
  'imageUrls.hosts': 'Máy chủ được phép',
  'imageUrls.hosts.hint':
    'Mỗi dòng một tên, ví dụ images.example.com, hoặc *.cdn.example.com cho các tên miền con. Để trống: mọi máy chủ công khai. Địa chỉ trên máy này hoặc mạng nội bộ luôn bị từ chối.',
  'imageUrls.saved': 'Đã lưu cài đặt địa chỉ ảnh',
  'imageUrls.rules':
    'Tối đa 20 MB mỗi ảnh, 15 giây mỗi lần tải, 5 lần chuyển hướng. Ảnh đã tải được lưu đệm trong thư mục dữ liệu.',
  'apiError.url-not-allowed':
    'Địa chỉ ảnh đang tắt. Bật trong Cài đặt → Địa chỉ ảnh, hoặc dùng tệp hay ảnh đã tải lên.',
  'apiError.image-url-refused': 'Địa chỉ ảnh này không được phép (máy chủ hoặc mạng).',
  'apiError.image-url-unreachable': 'Không tải được ảnh từ địa chỉ này.',
  'apiError.image-url-too-large': 'Ảnh ở địa chỉ này lớn hơn 20 MB.',
  'apiError.image-url-not-an-image': 'Địa chỉ này không chứa ảnh.',
  'apiError.image-url-timeout': 'Địa chỉ ảnh phản hồi quá lâu.',
};
